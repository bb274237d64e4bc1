// Test helper: a CliIo whose stdin the test writes to while the command runs, and whose output can be
// awaited (no sleeps: each wait resolves on the data event that completes the match).
import { PassThrough } from 'node:stream'
import type { CliIo } from '../../../../cli/io'

export interface PipeIo extends CliIo {
  stdin: PassThrough
  out(): string
  err(): string
  /**
   * Resolves with the first match of `pattern` in stdout, as soon as it is there. With `running` (the
   * command's promise), rejects with its exit code and stderr if the command ends first, instead of
   * waiting for the test's timeout with the reason hidden.
   */
  waitForOut(pattern: RegExp, running?: Promise<number>): Promise<RegExpExecArray>
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
    waitForOut: (pattern, running) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out)
          if (match) {
            stdout.off('data', check)
            resolve(match)
          }
        }
        stdout.on('data', check)
        check()
        void running?.then((code) => {
          if (pattern.exec(out)) return
          stdout.off('data', check)
          reject(new Error(`the command ended (exit ${code}) before ${String(pattern)}; stderr: ${err}`))
        })
      }),
  }
}
