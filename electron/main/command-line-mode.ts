import { join } from 'node:path'
import type * as Electron from 'electron'

/**
 * The variable the packaged `ask-user` launcher (build/bin/ask-user) sets to run the app's executable
 * as the command line instead of the desktop app: the RunAsNode fuse is off, so this is how the
 * bundled CLI runs where there is no Node.js.
 */
export const COMMAND_LINE_MODE_ENV = 'ASK_USER_CLI'

/** True when this process was started by the launcher to be the `ask-user` command. */
export function isCommandLineMode(env: NodeJS.ProcessEnv): boolean {
  return env[COMMAND_LINE_MODE_ENV] === '1'
}

/**
 * The person's arguments: a packaged app gets `[executable, ...args]`, a development run
 * (`electron <app folder> ...args`) one more in front.
 */
export function commandLineArguments(argv: readonly string[], isPackaged: boolean): string[] {
  return argv.slice(isPackaged ? 1 : 2)
}

/** The CLI bundle's entry (out/main/cli.js), as `cli/main.ts` exports it. */
export interface CliBundle {
  runFromProcess(host: { argv: string[]; exit: (code: number) => void }): void
}

export interface CommandLineOptions {
  app: Pick<Electron.App, 'isPackaged' | 'exit'> & { dock?: Pick<Electron.Dock, 'hide'> }
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  /** The main bundle's folder (`out/main`), where `cli.js` sits. */
  mainDir: string
  /** Loads the CLI bundle (the entry point passes `require`). */
  load(path: string): CliBundle
  /** Standard streams to flush before exiting (default: process.stdout and process.stderr). */
  streams?: NodeJS.WritableStream[]
}

/**
 * Runs `ask-user` inside the app's process: no window, tray or single-instance lock, no dock icon on
 * macOS; the process exits with the command's code once its output is flushed.
 */
export function runCommandLine(options: CommandLineOptions): void {
  delete options.env[COMMAND_LINE_MODE_ENV] // not inherited by what the command starts (a browser, say)
  options.app.dock?.hide()
  const streams = options.streams ?? [process.stdout, process.stderr]
  const exit = (code: number): void => {
    let waiting = streams.length
    if (waiting === 0) return options.app.exit(code)
    for (const stream of streams) stream.write('', () => --waiting === 0 && options.app.exit(code))
  }
  options
    .load(join(options.mainDir, 'cli.js'))
    .runFromProcess({ argv: commandLineArguments(options.argv, options.app.isPackaged), exit })
}
