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
export function refuseArguments(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr'>,
  name: string,
  help: string,
): number | undefined {
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

/**
 * The whole of `stream` as UTF-8 text, once it ends. With a `signal`, rejects with the signal's reason
 * as soon as it aborts (a caller's timeout or interrupt), without waiting for the end.
 */
export function readAll(stream: NodeJS.ReadableStream, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = []
  return new Promise<string>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const abort = (): void => reject(signal?.reason)
    signal?.addEventListener('abort', abort, { once: true })
    stream.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk))
    stream.once('error', reject)
    stream.once('end', () => {
      signal?.removeEventListener('abort', abort)
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
}
