// The packaged app's `ask-user`, laid out as `npm run dist` lays it out beside the app: the launcher in
// resources/bin, and resources/cli staged by the same code as dist.mjs (scripts/stage-cli.cjs). Built
// from this checkout into a temporary folder, so the bench times the launcher users run without
// packaging Electron. Not on Windows, whose launcher is a .cmd file.
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stageCli } from '../scripts/stage-cli.cjs'

export interface PackagedCli {
  /** resources/bin/ask-user */
  launcher: string
  remove(): void
}

export function stagePackagedCli(root: string): PackagedCli | undefined {
  if (process.platform === 'win32') return undefined
  const folder = mkdtempSync(join(tmpdir(), 'ask-user-bench-packaged-'))
  const resources = join(folder, 'resources')
  stageCli(root, join(resources, 'cli'))
  const launcher = join(resources, 'bin', 'ask-user')
  cpSync(join(root, 'build', 'bin', 'ask-user'), launcher)
  chmodSync(launcher, 0o755)
  return { launcher, remove: () => rmSync(folder, { recursive: true, force: true }) }
}
