// Test helper: a CliIo whose stdin the test writes to while the command runs, and whose output can be
// awaited (no sleeps: each wait resolves on the data event that completes the match).
import { PassThrough } from 'node:stream'
import type { CliIo } from '../../../../cli/io'

export interface PipeIo extends CliIo {
  stdin: PassThrough
  out(): string
  err(): string
  /** Resolves with the first match of `pattern` in stdout, as soon as it is there. */
  waitForOut(pattern: RegExp): Promise<RegExpExecArray>
}

export function pipeIo(env: NodeJS.ProcessEnv): PipeIo {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const stdin = new PassThrough()
  let out = ''
  let err = ''
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  return {
    stdout,
    stderr,
    stdin,
    env,
    cwd: process.cwd(),
    signal: new AbortController().signal,
    out: () => out,
    err: () => err,
    waitForOut: (pattern) =>
      new Promise((resolve) => {
        const check = (): void => {
          const match = pattern.exec(out)
          if (match) {
            stdout.off('data', check)
            resolve(match)
          }
        }
        stdout.on('data', check)
        check()
      }),
  }
}
