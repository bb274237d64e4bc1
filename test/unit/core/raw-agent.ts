// A bare wire-protocol agent over a real socket, for the tests of the core's sockets and of its whole
// (handshake, framing, heartbeat, shutdown): raw frames in, raw frames out, no client library.
import { expect } from 'vitest'
import type { IncomingMessage } from 'node:http'
import { WebSocket } from 'ws'
import { AGENT_SUBPROTOCOL, CompanionFrameSchema, type CompanionFrame } from '../../../shared/wire'
import { createFrameQueue } from '../../helpers/frame-queue'
import { WAIT_MS } from '../../helpers/waits'

export interface RawAgent {
  socket: WebSocket
  frames: CompanionFrame[]
  send(frame: object | string): void
  /** First unconsumed frame matching `predicate` (consumed on return); rejects after `timeoutMs`. */
  next<T extends CompanionFrame = CompanionFrame>(
    predicate?: (frame: CompanionFrame) => boolean,
    timeoutMs?: number,
  ): Promise<T>
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>
}

/** Result of an upgrade attempt that may be refused. */
export type UpgradeResult = { status: 101; protocol: string } | { status: number }

/** Tries an upgrade and reports the HTTP status (101 on success, then closes). */
export function tryUpgrade(url: string, protocols: string[], headers: Record<string, string>): Promise<UpgradeResult> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, { headers })
    socket.once('open', () => {
      resolve({ status: 101, protocol: socket.protocol })
      socket.close()
    })
    socket.once('unexpected-response', (_req, res: IncomingMessage) => {
      resolve({ status: res.statusCode ?? 0 })
      res.resume()
      socket.terminate()
    })
    socket.once('error', (error) => {
      if (socket.readyState !== WebSocket.CLOSED) reject(error)
    })
  })
}

/** Opens an authenticated agent socket (no hello sent). */
export async function openAgent(
  target: { agentUrl: string; token: string },
  options: { autoPong?: boolean } = {},
): Promise<RawAgent> {
  const socket = new WebSocket(target.agentUrl, [AGENT_SUBPROTOCOL], {
    headers: { Authorization: `Bearer ${target.token}` },
    autoPong: options.autoPong ?? true,
  })
  const queue = createFrameQueue<CompanionFrame>('agent socket')
  socket.on('message', (data) => queue.push(CompanionFrameSchema.parse(JSON.parse(String(data)))))
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => {
      resolve({ code, reason: reason.toString() })
      queue.end()
    }),
  )
  socket.on('error', () => undefined)
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  return {
    socket,
    frames: queue.frames,
    closed,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (predicate, timeoutMs) => queue.next(predicate, timeoutMs),
  }
}

/** Opens an agent socket and completes hello/welcome. */
export async function helloAgent(target: { agentUrl: string; token: string }, name = 'test-agent'): Promise<RawAgent> {
  const agent = await openAgent(target)
  agent.send({ type: 'hello', protocol: 1, client: { name, pid: 42, cwd: '/tmp/project' } })
  await agent.next((frame) => frame.type === 'welcome')
  return agent
}

/** A one-question ask frame. */
export function askFrame(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'ask',
    id,
    questions: [
      { id: 'q1', question: 'Which database?', options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }] },
    ],
    ...extra,
  }
}

/** `expect.poll` with a deadline that survives a loaded machine ({@link WAIT_MS} instead of 1 s). */
export const poll = <T>(fn: () => T | Promise<T>): ReturnType<typeof expect.poll<T>> =>
  expect.poll(fn, { timeout: WAIT_MS })
