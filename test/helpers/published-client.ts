// Test helper: a published npm package (an MCP client's CLI) installed once into a cache folder under
// the OS temp folder, keyed by name and version, and reused by later runs.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import type { PublishedClient } from '../../integrations/harness'

/** One published client: its npm package, the exact version tested, and the command it installs (a harness's own is its record's `published`). */
export type { PublishedClient }

/** An installed client's `.bin` folder (to put first on PATH) and command; or why it could not be installed. */
export type Installed =
  { ok: true; binDir: string; command: string; seconds: number; cached: boolean } | { ok: false; reason: string }

/** True when npm's failure says the registry could not be reached (rather than something about the package). */
export function registryUnreachable(reason: string): boolean {
  return /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|network|timed out/i.test(reason)
}

/**
 * Set to `1` for a quick local run: every test that installs and runs a real harness CLI (Claude Code,
 * Codex, Gemini CLI, Qwen Code, opencode, Copilot CLI, the MCP Inspector) is skipped with this reason,
 * cached or not. `.ci/run` never sets it; the README's "Tests" section documents it.
 */
export const SKIP_HARNESSES = 'ASK_USER_TEST_SKIP_HARNESSES'

/** Why the real harness CLIs are not installed or run in this process, or undefined when they are. */
export function harnessSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SKIP_HARNESSES] === '1'
    ? `${SKIP_HARNESSES}=1 is set: the real harness CLIs are neither downloaded nor run`
    : undefined
}

let skipPrinted = false

/** The cache folder: `$TMPDIR/ask-user-clients/<pkg>@<version>` (ASK_USER_CLIENT_CACHE overrides the parent). */
export function cacheFolder(client: PublishedClient): string {
  const parent = process.env['ASK_USER_CLIENT_CACHE'] ?? join(tmpdir(), 'ask-user-clients')
  return join(parent, `${client.pkg.replace(/^@/, '').replace('/', '+')}@${client.version}`)
}

/**
 * The client installed in its cache folder (`npm install` into a temporary folder, renamed into place
 * when complete, so an interrupted install is never taken for a cached one). Resolves `ok: false`
 * with npm's last line when the install fails (no registry, no network) or takes over `timeoutMs`;
 * given `unreachable` (an earlier failure's reason), a client not cached yet is not tried again; with
 * ASK_USER_TEST_SKIP_HARNESSES=1 ({@link harnessSkipReason}) nothing is installed and every client is not ok.
 */
export async function installPublished(
  client: PublishedClient,
  timeoutMs = 300_000,
  unreachable?: string,
): Promise<Installed> {
  const skipped = harnessSkipReason()
  if (skipped !== undefined) {
    if (!skipPrinted) console.log(`skipping the real-binary tests: ${skipped}`)
    skipPrinted = true
    return { ok: false, reason: skipped }
  }
  const folder = cacheFolder(client)
  const binDir = join(folder, 'node_modules', '.bin')
  const done = join(folder, '.installed')
  if (existsSync(done)) return { ok: true, binDir, command: join(binDir, client.bin), seconds: 0, cached: true }
  if (unreachable !== undefined) return { ok: false, reason: unreachable }
  const started = Date.now()
  const temporary = `${folder}.partial-${process.pid}`
  await rm(temporary, { recursive: true, force: true })
  await mkdir(temporary, { recursive: true })
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  // Short network timeouts, so that an unreachable registry costs seconds, not npm's minutes of retries.
  const args = [
    'install',
    '--prefix',
    temporary,
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    '--fetch-timeout=30000',
    '--fetch-retries=1',
  ]
  args.push(`${client.pkg}@${client.version}`)
  const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(npm, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      shell: process.platform === 'win32',
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.once('error', (error) => resolve({ code: null, output: error.message }))
    child.once('close', (code) => resolve({ code, output }))
  })
  if (result.code !== 0) {
    await rm(temporary, { recursive: true, force: true })
    const last = result.output.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${result.code ?? 'by timeout'}`
    return { ok: false, reason: `npm could not install ${client.pkg}@${client.version}: ${last}` }
  }
  await writeFile(join(temporary, '.installed'), `${new Date().toISOString()}\n`)
  await rm(folder, { recursive: true, force: true })
  await rename(temporary, folder).catch(async () => rm(temporary, { recursive: true, force: true }))
  return { ok: true, binDir, command: join(binDir, client.bin), seconds: (Date.now() - started) / 1000, cached: false }
}
