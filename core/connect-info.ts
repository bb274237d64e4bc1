import { basename, dirname, join } from 'node:path'
import type { CommandLine, ConnectInfo } from '../shared/connect'

/** Where this companion's `ask-user` lives: what the "Connect an agent" lines must point at. */
export interface Install {
  platform: NodeJS.Platform
  /** The companion's home folder: agents get it as ASK_USER_HOME (some harnesses filter the environment). */
  home: string
  env: NodeJS.ProcessEnv
  /** The packaged app's resources folder, when running packaged. */
  resourcesPath?: string
  /** The script that runs the CLI in a source checkout or a global install (`bin/ask-user.js`, or `process.argv[1]`). */
  script?: string
  /** The Node.js to run `script` with where scripts are not executable (Windows); default `node` from PATH. */
  node?: string
}

/**
 * How agents on this machine should run `ask-user`, always by absolute path (never `npx`):
 * - a packaged app: its launcher `resources/bin/ask-user` (`ask-user.cmd` on Windows); an AppImage is
 *   started itself in command-line mode, since its resources exist only while it runs;
 * - the CLI bundle of a packaged app run by Node (`resources/cli/main/cli.js`): that app's launcher;
 * - a source checkout or global install: the script (it has a shebang), or `node <script>` on Windows.
 * Returns undefined when none of these is known.
 */
export function connectInfo(install: Install): ConnectInfo | undefined {
  const commandLine = commandLineOf(install)
  if (!commandLine) return undefined
  const env: Record<string, string> = { ASK_USER_HOME: install.home }
  if (commandLine.command === install.env['APPIMAGE']) env['ASK_USER_CLI'] = '1'
  const platform =
    install.platform === 'darwin' || install.platform === 'linux' || install.platform === 'win32'
      ? install.platform
      : 'other'
  return { commandLine, env, platform }
}

function commandLineOf(install: Install): CommandLine | undefined {
  const windows = install.platform === 'win32'
  const launcherIn = (resources: string): CommandLine => ({
    command: join(resources, 'bin', windows ? 'ask-user.cmd' : 'ask-user'),
    args: [],
  })
  const appImage = install.platform === 'linux' ? install.env['APPIMAGE'] : undefined
  if (install.resourcesPath !== undefined)
    return appImage ? { command: appImage, args: [] } : launcherIn(install.resourcesPath)
  const script = install.script
  if (script === undefined) return undefined
  const main = dirname(script)
  if (basename(script) === 'cli.js' && basename(main) === 'main' && basename(dirname(main)) === 'cli')
    return launcherIn(dirname(dirname(main)))
  return windows ? { command: install.node ?? 'node', args: [script] } : { command: script, args: [] }
}
