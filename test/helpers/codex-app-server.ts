// Test helper: drives `codex app-server` (JSON-RPC over stdio, no login, no model) far enough to list
// a thread's MCP servers and call one of their tools, which `codex mcp list` cannot (it never connects).
import { spawn, type ChildProcess } from 'node:child_process'

/** A running `codex app-server`, with one ephemeral thread in `cwd`. */
export interface CodexAppServer {
  threadId: string
  /** Sends a request and resolves with its `result` (rejects with its `error`, or on a deadline). */
  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown>
  close(): void
}

/** Starts `codex app-server` with exactly `env`, initializes it and starts an ephemeral thread in `cwd`. */
export async function startCodexAppServer(
  codex: string,
  env: Record<string, string>,
  cwd: string,
): Promise<CodexAppServer> {
  const child: ChildProcess = spawn(codex, ['app-server'], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] })
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let buffered = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: { message: string } }
      const waiter = message.id === undefined ? undefined : pending.get(message.id)
      if (!waiter) continue
      pending.delete(message.id!)
      if (message.error) waiter.reject(new Error(message.error.message))
      else waiter.resolve(message.result)
    }
  })
  let next = 0
  const request = (method: string, params: unknown, timeoutMs = 30_000): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++next
      const timer = setTimeout(
        () => reject(new Error(`codex app-server: no answer to ${method} in ${timeoutMs} ms`)),
        timeoutMs,
      )
      pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      })
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
    })
  await request('initialize', { clientInfo: { name: 'ask-user-tests', version: '0' } })
  child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`)
  const started = (await request('thread/start', { ephemeral: true, cwd })) as { thread: { id: string } }
  return { threadId: started.thread.id, request, close: () => void child.kill() }
}
