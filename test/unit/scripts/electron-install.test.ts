// `npm start` on a machine where Electron's binary is not there yet: Electron's own installer runs,
// against a mirror on 127.0.0.1 standing in for Electron's releases, then the app starts. Each case runs
// the real scripts/start.mjs in a scratch copy of the project, as a child process.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  ELECTRON_VERSION,
  EXECUTABLE,
  RELEASE_FILE,
  removeScratchDirs,
  scratchDir,
  scratchProject,
  shasums,
  standInLaunches,
  standInRelease,
  startMirror,
} from '../../helpers/electron-stand-in'
import type { Mirror, ScratchProject } from '../../helpers/electron-stand-in'
import { runProcess } from '../../helpers/run-process'
import { ensureBuilt } from '../cli/built-cli'

const FALLBACK = 'Without the desktop app, run `npx ask-user serve` to answer in a browser.'

let project: ScratchProject
let cache: string
let log: string
let mirror: Mirror | undefined

beforeAll(() => ensureBuilt()) // the scratch project copies out/

beforeEach(() => {
  project = scratchProject()
  cache = scratchDir('electron-cache')
  log = join(cache, 'stand-in.log')
})

afterEach(async () => {
  await mirror?.close()
  mirror = undefined
  project.remove()
  removeScratchDirs() // the Electron cache, and any override folder the test made
})

/** Runs `npm start`'s script in the scratch project with exactly `env` (plus PATH). */
function start(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return runProcess(process.execPath, [join(project.root, 'scripts', 'start.mjs'), ...args], project.root, {
    HOME: cache,
    electron_config_cache: cache,
    ELECTRON_STAND_IN_LOG: log,
    ...env,
  })
}

const remoteChecksums = (url: string): Record<string, string> => ({
  ELECTRON_MIRROR: url,
  electron_use_remote_checksums: '1',
})
const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? ''
// `--preview --skipBuild`: electron-vite starts the already built app at once (the dev server would
// rebuild out/, which other test files read); `--` hands the rest to the app.
const PREVIEW = ['--preview', '--skipBuild', '--', '--from-test']

describe.skipIf(process.platform === 'win32')('npm start installs Electron on first use', () => {
  it('downloads from the mirror, checks the published checksum, then launches the app with its arguments', async () => {
    const release = standInRelease()
    mirror = await startMirror({
      files: { [RELEASE_FILE]: release, 'SHASUMS256.txt': Buffer.from(shasums({ [RELEASE_FILE]: release })) },
    })

    const first = await start(PREVIEW, remoteChecksums(mirror.url))

    expect(first.code).toBe(0)
    expect(first.stderr).toContain(
      `Downloading Electron ${ELECTRON_VERSION} (once; it is kept in ${join(project.electronDir, 'dist')})…`,
    )
    expect(first.stderr).toContain(`Electron ${ELECTRON_VERSION} installed.`)
    expect(mirror.requests.sort()).toEqual([
      `/v${ELECTRON_VERSION}/SHASUMS256.txt`,
      `/v${ELECTRON_VERSION}/${RELEASE_FILE}`,
    ])
    expect(existsSync(join(project.electronDir, 'dist', EXECUTABLE))).toBe(true)
    expect(standInLaunches(log)).toEqual([{ cwd: project.root, args: ['.', '--from-test'], cliMode: null }])

    // The second start finds the binary and downloads nothing.
    const second = await start(PREVIEW, remoteChecksums(mirror.url))
    expect(second.code).toBe(0)
    expect(second.stderr).not.toContain('Downloading Electron')
    expect(mirror.requests).toHaveLength(2)
    expect(standInLaunches(log)).toHaveLength(2)
  })

  it('says in one line why, when the mirror refuses, and starts nothing', async () => {
    mirror = await startMirror({ status: 403 })

    const run = await start(PREVIEW, remoteChecksums(mirror.url))

    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toBe(
      `Error: Electron ${ELECTRON_VERSION} could not be downloaded (Response code 403 (Forbidden) for ${mirror.url}v${ELECTRON_VERSION}/${RELEASE_FILE}); ` +
        `check the network, or set ELECTRON_MIRROR to a reachable mirror. ${FALLBACK}`,
    )
    expect(run.stderr).not.toMatch(/^[ \t]+at /m) // no stack trace
    expect(existsSync(join(project.electronDir, 'path.txt'))).toBe(false)
    expect(standInLaunches(log)).toEqual([])
  })

  it('names the network error when nothing answers at the mirror', async () => {
    const closed = await startMirror({ status: 200 })
    await closed.close() // the port is free again: connections are refused
    const run = await start(PREVIEW, remoteChecksums(closed.url))

    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toMatch(
      new RegExp(
        `^Error: Electron ${ELECTRON_VERSION.replace(/\./g, '\\.')} could not be downloaded \\(fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\); check the network`,
      ),
    )
  })

  it('refuses a corrupt zip whose checksum matches, and says how to get past the damaged download', async () => {
    const corrupt = standInRelease().subarray(0, 120)
    mirror = await startMirror({
      files: { [RELEASE_FILE]: corrupt, 'SHASUMS256.txt': Buffer.from(shasums({ [RELEASE_FILE]: corrupt })) },
    })

    const run = await start(PREVIEW, remoteChecksums(mirror.url))

    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toMatch(
      new RegExp(
        `^Error: Electron \\S+ could not be downloaded \\(failed to read archive '${cache.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/.+/${RELEASE_FILE}': invalid Zip archive: .+\\); delete that damaged download from the cache and try again\\. `,
      ),
    )
    expect(existsSync(join(project.electronDir, 'path.txt'))).toBe(false)
    expect(standInLaunches(log)).toEqual([])
  })

  it('refuses a zip that does not match the published checksum', async () => {
    const release = standInRelease()
    mirror = await startMirror({
      files: {
        [RELEASE_FILE]: release,
        'SHASUMS256.txt': Buffer.from(shasums({ [RELEASE_FILE]: Buffer.from('other bytes') })),
      },
    })

    const run = await start(PREVIEW, remoteChecksums(mirror.url))

    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toBe(
      `Error: Electron ${ELECTRON_VERSION} could not be downloaded (Generated checksum for "${RELEASE_FILE}" did not match expected checksum.); ` +
        `the file does not match its published checksum: check ELECTRON_MIRROR. ${FALLBACK}`,
    )
  })

  it('uses ELECTRON_OVERRIDE_DIST_PATH as Electron does, and never downloads for it', async () => {
    mirror = await startMirror({ status: 500 })
    const dist = scratchDir('electron-override')
    mkdirSync(join(dist, EXECUTABLE, '..'), { recursive: true })
    writeFileSync(join(dist, EXECUTABLE), `#!/bin/sh\necho "$PWD $*" > "$ELECTRON_STAND_IN_LOG.override"\n`, {
      mode: 0o755,
    })

    const run = await start(PREVIEW, { ...remoteChecksums(mirror.url), ELECTRON_OVERRIDE_DIST_PATH: dist })
    expect(run.code).toBe(0)
    expect(mirror.requests).toEqual([])

    const missing = await start(PREVIEW, {
      ...remoteChecksums(mirror.url),
      ELECTRON_OVERRIDE_DIST_PATH: join(dist, 'nothing'),
    })
    expect(missing.code).toBe(1)
    expect(lastLine(missing.stderr)).toBe(
      `Error: ELECTRON_OVERRIDE_DIST_PATH is set, but ${join(dist, 'nothing', EXECUTABLE)} does not exist; point it at an unpacked Electron or unset it. ${FALLBACK}`,
    )
    expect(mirror.requests).toEqual([])
  })
})
