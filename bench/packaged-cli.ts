// The packaged app's `ask-user`, laid out as scripts/dist.mjs stages it beside the app: the launcher in
// resources/bin, the entry and its compile cache in resources/cli/bin, the bundles in resources/cli/main.
// Built from this checkout into a temporary folder, so the bench times the launcher users run without
// packaging Electron. Not on Windows, whose launcher is a .cmd file.
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface PackagedCli {
  /** resources/bin/ask-user */
  launcher: string
  remove(): void
}

export function stagePackagedCli(root: string): PackagedCli | undefined {
  if (process.platform === 'win32') return undefined
  const folder = mkdtempSync(join(tmpdir(), 'ask-user-bench-packaged-'))
  const resources = join(folder, 'resources')
  cpSync(join(root, 'out', 'main'), join(resources, 'cli', 'main'), { recursive: true })
  for (const file of ['ask-user.js', 'compile-cache.js']) cpSync(join(root, 'bin', file), join(resources, 'cli', 'bin', file))
  const launcher = join(resources, 'bin', 'ask-user')
  cpSync(join(root, 'build', 'bin', 'ask-user'), launcher)
  chmodSync(launcher, 0o755)
  return { launcher, remove: () => rmSync(folder, { recursive: true, force: true }) }
}
