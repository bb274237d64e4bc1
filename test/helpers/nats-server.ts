// Test helper: Debian's nats-server on free 127.0.0.1 ports, one per test file, with a given config.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'

/** Where `.ci/run` installs Debian's nats-server. */
export const NATS_SERVER_BIN = '/usr/sbin/nats-server'

/** Why the relay's server tests cannot run here, or undefined when they can. Printed by the caller. */
export function natsServerSkipReason(): string | undefined {
  return existsSync(NATS_SERVER_BIN)
    ? undefined
    : `${NATS_SERVER_BIN} is missing (run .ci/run to install Debian's nats-server)`
}

/** A free TCP port on 127.0.0.1 (bound to 0 then released; good enough for one server per file). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** A running server: its log so far, and `stop()` (SIGTERM, then waits for the exit). */
export interface RunningNatsServer {
  process: ChildProcess
  log: () => string
  stop: () => Promise<void>
}

/** Starts `nats-server -c configPath` and resolves once its log says it is ready (rejects on exit or 15 s). */
export async function startNatsServer(configPath: string): Promise<RunningNatsServer> {
  const child = spawn(NATS_SERVER_BIN, ['-c', configPath], { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server not ready after 15 s:\n${log}`)), 15_000)
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8')
      if (log.includes('Server is ready')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`nats-server exited (${code}) before it was ready:\n${log}`))
    })
  })
  return {
    process: child,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
