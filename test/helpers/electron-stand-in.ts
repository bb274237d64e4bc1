// Test helpers for the Electron download path: a stand-in Electron release (a zip whose "executable"
// is a shell script that records how it was started), a local mirror serving it the way
// ELECTRON_MIRROR expects, and a scratch copy of the project as a user has it right after
// `npm install` (the electron package without its binary).
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { storedZip } from './stored-zip'

export const ROOT = join(__dirname, '..', '..')
export const ELECTRON_VERSION: string = JSON.parse(
  readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'),
).version

/** The release file @electron/get asks a mirror for on this machine. */
export const RELEASE_FILE = `electron-v${ELECTRON_VERSION}-${process.platform}-${process.arch}.zip`

/** The marker @electron/fuses looks for in an Electron executable (its `SENTINEL`). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'

/** Where an unpacked Electron keeps its executable on this OS. */
export const EXECUTABLE = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron'

/**
 * A stand-in Electron release. Its executable appends one JSON line `{cwd, args, cliMode}` to the file
 * named by `ELECTRON_STAND_IN_LOG` (`cliMode` = its ASK_USER_CLI variable) and exits 0.
 */
export function standInRelease(): Buffer {
  const script = [
    '#!/bin/sh',
    // Electron's fuse wire (sentinel, version 1, 8 fuses, all on), so electron-builder can flip fuses here too.
    `# ${FUSE_SENTINEL}\x01\x0811111111`,
    'node -e \'require("fs").appendFileSync(process.env.ELECTRON_STAND_IN_LOG, JSON.stringify({ cwd: process.cwd(), args: process.argv.slice(1), cliMode: process.env.ASK_USER_CLI ?? null }) + "\\n")\' -- "$@"',
    '',
  ].join('\n')
  return storedZip([
    { name: EXECUTABLE, data: script, mode: 0o755 },
    { name: 'version', data: `v${ELECTRON_VERSION}` },
    { name: 'locales/en-US.pak', data: 'stand-in' },
    { name: 'LICENSE', data: 'stand-in Electron for tests' },
  ])
}

/** `SHASUMS256.txt` as Electron publishes it, for the given files. */
export function shasums(files: Record<string, Buffer>): string {
  return Object.entries(files)
    .map(([name, data]) => `${createHash('sha256').update(data).digest('hex')} *${name}`)
    .join('\n')
}

export interface Mirror {
  /** The value for ELECTRON_MIRROR (ends with `/`). */
  url: string
  /** Paths requested so far. */
  requests: string[]
  close(): Promise<void>
}

/** An HTTP server on 127.0.0.1 serving `files` under `v<version>/`, or answering `status` to everything. */
export async function startMirror(content: { files: Record<string, Buffer> } | { status: number }): Promise<Mirror> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '')
    if ('status' in content) return void response.writeHead(content.status).end()
    const prefix = `/v${ELECTRON_VERSION}/`
    const file = request.url?.startsWith(prefix) ? content.files[request.url.slice(prefix.length)] : undefined
    if (!file) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-length': file.length }).end(file)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export interface ScratchProject {
  root: string
  /** The project's electron package folder (a real copy, without dist/ or path.txt). */
  electronDir: string
  remove(): void
}

/**
 * A copy of the project as a user has it after `npm install`: package.json, scripts/, bin/, the build config
 * and icons, the built out/, and node_modules whose entries link to ours, except `electron`,
 * which is a fresh copy of the published package: no binary yet.
 */
export function scratchProject(): ScratchProject {
  const root = mkdtempSync(join(tmpdir(), 'ask-user-scratch-project-'))
  for (const file of ['package.json', 'electron-builder.yml']) cpSync(join(ROOT, file), join(root, file))
  for (const dir of ['scripts', 'bin']) cpSync(join(ROOT, dir), join(root, dir), { recursive: true })
  symlinkSync(join(ROOT, 'build'), join(root, 'build'))
  cpSync(join(ROOT, 'out'), join(root, 'out'), { recursive: true }) // a copy: electron-builder does not pack through a link
  const modules = join(root, 'node_modules')
  mkdirSync(modules)
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name !== 'electron') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name))
  }
  const electronDir = join(modules, 'electron')
  const published: string[] = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ).files
  mkdirSync(electronDir)
  for (const file of [...published, 'package.json'])
    cpSync(join(ROOT, 'node_modules', 'electron', file), join(electronDir, file))
  const nested = join(ROOT, 'node_modules', 'electron', 'node_modules')
  if (existsSync(nested)) symlinkSync(nested, join(electronDir, 'node_modules'))
  return { root, electronDir, remove: () => rmSync(root, { recursive: true, force: true }) }
}

const scratchDirs: string[] = []

/** A fresh temporary folder (for caches and logs); a test file removes it with {@link removeScratchDirs}. */
export function scratchDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ask-user-${label}-`))
  scratchDirs.push(dir)
  return dir
}

/** Removes every folder {@link scratchDir} made in this test file so far (call it in `afterEach` or `afterAll`). */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** The JSON lines the stand-in executable wrote. */
export function standInLaunches(log: string): Array<{ cwd: string; args: string[]; cliMode: string | null }> {
  try {
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  } catch {
    return []
  }
}
