// How a bundle entry of `ask-user` (cli.js, or the lean mcp.js / hook.js) runs as the process: the real
// streams and signals in, the exit code out. Kept apart from the table of commands so that the lean
// entries load nothing else.
import { errorMessage } from '../shared/describe-error'
import type { CliIo } from './io'
import { printError } from './io'
import { withInlineSecretsTakenOut } from './child-env'

/** How the process hosting the CLI hands over its arguments and takes the exit code. */
export interface ProcessHost {
  /** The user's arguments (default: `process.argv.slice(2)`, after node and the script). */
  argv?: string[]
  /** Ends the run with `code` (default: sets `process.exitCode` and lets Node exit by itself). */
  exit?: (code: number) => void
}

/** Runs `main` with the real process streams and signals (SIGINT/SIGTERM abort `io.signal`); sets the exit code. */
export function runWithProcess(main: (argv: string[], io: CliIo) => Promise<number>, host: ProcessHost = {}): void {
  const exit = host.exit ?? ((code: number) => void (process.exitCode = code))
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  main(host.argv ?? process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: withInlineSecretsTakenOut(process.env),
    cwd: process.cwd(),
    signal: controller.signal,
  }).then(exit, (error: unknown) => {
    printError(process, errorMessage(error))
    exit(1)
  })
}
