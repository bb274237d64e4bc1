/**
 * What a command may touch of the outside world, injected so that tests can run commands in-process
 * as well as in a child process. `signal` aborts on SIGINT/SIGTERM in the real CLI.
 */
export interface CliIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  stdin: NodeJS.ReadableStream
  env: NodeJS.ProcessEnv
  cwd: string
  /** Aborted when the process receives SIGINT or SIGTERM. */
  signal: AbortSignal
}

/** A subcommand: parses its own arguments, returns the process exit code. */
export type Command = (args: string[], io: CliIo) => Promise<number>

/** Exit codes of `ask-user` (README "Commands"). */
export const EXIT = {
  OK: 0,
  INVALID_INPUT: 2,
  DISMISSED: 3,
  NO_COMPANION: 4,
  TIMED_OUT: 124,
  INTERRUPTED: 130,
} as const

/** Writes `Error: <message>` on stderr, the one error format of the CLI. */
export function printError(io: Pick<CliIo, 'stderr'>, message: string): void {
  io.stderr.write(`Error: ${message}\n`)
}

/**
 * The prologue of a command that takes no arguments: `--help`/`-h` prints `help` (exit 0), anything
 * else is refused (exit 2). Returns undefined when the command should run.
 */
export function refuseArguments(args: readonly string[], io: Pick<CliIo, 'stdout' | 'stderr'>, name: string, help: string): number | undefined {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(help)
    return EXIT.OK
  }
  if (args.length > 0) {
    printError(io, `unexpected argument "${args[0]}"; run \`ask-user ${name} --help\``)
    return EXIT.INVALID_INPUT
  }
  return undefined
}
