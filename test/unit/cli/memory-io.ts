// Test helper: a CliIo backed by memory, for running commands in-process.
import { PassThrough, Readable } from 'node:stream'
import type { CliIo } from '../../../cli/io'

export interface MemoryIo extends CliIo {
  out(): string
  err(): string
  abort(): void
}

export function memoryIo(env: NodeJS.ProcessEnv = {}, stdin = ''): MemoryIo {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const controller = new AbortController()
  return {
    stdout,
    stderr,
    stdin: Readable.from([stdin]),
    env,
    cwd: process.cwd(),
    signal: controller.signal,
    out: () => out,
    err: () => err,
    abort: () => controller.abort(),
  }
}
