// Test helper: make sure `bin/ask-user.js` runs the current sources, and run it as a child process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const ROOT = join(__dirname, '..', '..', '..')
export const BIN = join(ROOT, 'bin', 'ask-user.js')
const BUILT = join(ROOT, 'out', 'main', 'cli.js')
const SOURCES = ['agent', 'cli', 'shared', 'integrations', 'core', 'relay', 'package.json']
const LOCK = join(tmpdir(), 'ask-user-companion-build.lock')

function newestSource(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))))
}

function isFresh(): boolean {
  try {
    return statSync(BUILT).mtimeMs >= Math.max(...SOURCES.map((p) => newestSource(join(ROOT, p))))
  } catch {
    return false
  }
}

/**
 * Builds with `electron-vite build` unless out/main/cli.js is newer than every agent/cli/shared/integrations/core
 * source. Test files running in parallel take turns through a lock folder, so only one builds.
 */
export async function ensureBuilt(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (isFresh()) return
    try {
      mkdirSync(LOCK)
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 90_000) rmSync(LOCK, { recursive: true, force: true })
      } catch {
        /* lock vanished: try again */
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for another test file to build')
      // polling interval of a wait bounded by `deadline` (the lock holder gives no event to await)
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    try {
      if (isFresh()) return
      const build = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
        {
          cwd: ROOT,
          encoding: 'utf8',
        },
      )
      if (build.status !== 0) throw new Error(`electron-vite build failed:\n${build.stdout}\n${build.stderr}`)
      return
    } finally {
      rmSync(LOCK, { recursive: true, force: true })
    }
  }
}

/**
 * How long the built CLI takes to start and exit here and now (`ask-user --version` with `env`): the
 * floor under any command. "At once" is asserted above it, so a busy machine (slow process starts)
 * does not fail a promise about waiting, while a command that waited for a timeout still would.
 */
export async function cliStartUpMs(env: Record<string, string>): Promise<number> {
  const started = performance.now()
  const { code, stderr } = await runCli(['--version'], env).done
  if (code !== 0) throw new Error(`ask-user --version exited ${code}: ${stderr}`)
  return performance.now() - started
}

export interface CliRun {
  child: ChildProcess
  /** Resolves when the process has exited, with everything it wrote. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

/** Spawns `node bin/ask-user.js ...args` with exactly `env` (plus PATH), optionally writing `stdin`. */
export function runCli(args: string[], env: Record<string, string>, stdin?: string): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  if (stdin !== undefined) child.stdin!.end(stdin)
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return { child, done }
}
