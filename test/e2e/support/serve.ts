// `ask-user serve` as a person starts it: the real command in a child process, in a fresh home folder,
// with agents that find it through that folder's endpoint.json, as agents on the machine do.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AskUserClient, validateAsk, type AskOptions } from '../../../agent'
import type { ApprovalDecision, ApprovalRequest } from '../../../shared/approval'
import type { Question } from '../../../shared/tool-input'
import { ensureRendererBuilt, ROOT } from './build'

export const BIN = join(ROOT, 'bin', 'ask-user.js')

/** An agent of a served companion; its calls resolve to the outcome and never reject. */
export interface ServedAgent {
  ask(questions: Question[], options?: AskOptions): Promise<unknown>
  approve(request: ApprovalRequest): Promise<ApprovalDecision | { error: string }>
}

export interface Served {
  home: string
  /** The one-time link `serve` printed (one page may redeem it). */
  link: string
  /** The page's origin, `http://127.0.0.1:<port>`. */
  origin: string
  /** What `serve` printed on stderr so far. */
  stderr(): string
  agent(name: string, info?: { cwd?: string; title?: string }): ServedAgent
  /**
   * Ends `serve` and waits for it: SIGTERM after closing the agents (a graceful stop, which withdraws
   * their asks), or SIGKILL as they are (a crash: the windows keep the asks they last knew).
   */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>
  /** Stops `serve` if it still runs and removes its home folder. */
  cleanup(): Promise<void>
}

/**
 * Starts `node bin/ask-user.js serve --port 0` and waits for its link: in `options.home` (a home the test
 * prepared, for example with a relay; the test removes it), else in a new home folder that
 * {@link Served.cleanup} removes.
 */
export async function startServe(options: { home?: string } = {}): Promise<Served> {
  ensureRendererBuilt()
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'ask-user-e2e-serve-'))
  const serve: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, ASK_USER_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  serve.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const link = await new Promise<string>((resolve, reject) => {
    let out = ''
    serve.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const line = out.split('\n').find((text) => text.startsWith('http://'))
      if (line) resolve(line.trim())
    })
    serve.once('exit', (code) => reject(new Error(`ask-user serve exited with ${code}`)))
  })
  const clients: AskUserClient[] = []
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    if (signal === 'SIGTERM') await Promise.all(clients.map((client) => client.close()))
    if (serve.exitCode === null && serve.signalCode === null) {
      const exited = new Promise((resolve) => serve.once('exit', resolve))
      serve.kill(signal)
      await exited
    }
    await Promise.all(clients.map((client) => client.close()))
  }
  return {
    home,
    link,
    origin: new URL(link).origin,
    stderr: () => stderr,
    agent(name, info = {}) {
      const client = new AskUserClient({
        env: { ASK_USER_HOME: home },
        name,
        cwd: info.cwd ?? `/home/ada/src/${name}`,
        title: info.title,
        pid: 4000 + clients.length,
      })
      clients.push(client)
      return {
        ask: (questions, options) => client.ask(validateAsk({ questions }), options).catch((error: unknown) => error),
        approve: (request) =>
          client.requestApproval(request).catch((error: { code: string }) => ({ error: error.code })),
      }
    },
    stop,
    async cleanup() {
      await stop('SIGTERM')
      if (options.home === undefined) rmSync(home, { recursive: true, force: true })
    },
  }
}
