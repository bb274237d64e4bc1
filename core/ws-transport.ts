import type { Duplex } from 'node:stream'
import type { RawData, WebSocket } from 'ws'
import type { Transport } from '../shared/transport'
import type { WindowQueues } from './window-queues'

/**
 * A peer that lets this much outgoing data pile up unread (bytes) is terminated instead of growing the
 * companion's memory without bound; windows reconnect and get a fresh snapshot.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024

/** The TCP stream under each accepted WebSocket, for batching its writes (see {@link sendText}). */
const streams = new WeakMap<WebSocket, Duplex>()
/** The streams {@link sendText} corked in this tick; one `nextTick` uncorks them all. */
let corked: Duplex[] = []

function uncorkAll(): void {
  const streamsToFlush = corked
  corked = []
  for (const stream of streamsToFlush) stream.uncork()
}

/** Remembers the stream a WebSocket was upgraded from, so frames sent to it in one tick share a write. */
export function registerStream(socket: WebSocket, stream: Duplex): void {
  streams.set(socket, stream)
}

/**
 * Sends text on an open socket and returns true; returns false, sending nothing, on a socket that is
 * not open, and terminates a peer that stopped reading (see {@link MAX_BUFFERED_BYTES}).
 * Every frame sent to one socket in the same tick leaves in one write: the stream is corked on the
 * first and uncorked on the next tick, so a window gets `question/resolved` and `accepted` together
 * rather than as two packets. A window's socket passes
 * `queues`, the bound of what all windows together may leave unread (window-queues.ts).
 */
export function sendText(socket: WebSocket, text: string, queues?: WindowQueues): boolean {
  if (socket.readyState !== socket.OPEN) return false
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.terminate()
    return false
  }
  const stream = streams.get(socket)
  // Not corked yet in this tick (ws corks only inside its own synchronous send, and uncorks there).
  if (stream && stream.writableCorked === 0) {
    if (corked.length === 0) process.nextTick(uncorkAll)
    corked.push(stream)
    stream.cork()
  }
  socket.send(text)
  queues?.sent(socket, text.length)
  return true
}

/**
 * Calls `resume` once `socket` has handed its queued output to the kernel (its stream drained), or on
 * the next turn of the event loop when nothing is queued. Never called for a socket that closes first.
 */
export function whenDrained(socket: WebSocket, resume: () => void): void {
  if (socket.readyState !== socket.OPEN) return
  const stream = streams.get(socket)
  if (stream && stream.writableNeedDrain) stream.once('drain', resume)
  else setImmediate(resume)
}

/** Decodes a ws message (Buffer, Buffer[] or ArrayBuffer) as UTF-8 text. */
export function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

/**
 * The {@link Transport} over a WebSocket the companion accepted: text frames arrive decoded as UTF-8,
 * binary frames as `{kind: 'binary'}`; sends go through {@link sendText} (batched, capped; a window's
 * socket passes the bound of all windows' queues, `queues`). What stays
 * with the socket and its server: `maxPayload` (an oversized frame closes with 1009, reported through
 * `onclose`), no compression, and the heartbeat (heartbeat.ts pings the socket itself).
 */
export function wsTransport(socket: WebSocket, queues?: WindowQueues): Transport {
  const transport: Transport = {
    onmessage: undefined,
    onclose: undefined,
    send: (text) => sendText(socket, text, queues),
    close: (code, reason) => socket.close(code, reason),
  }
  socket.on('message', (data, isBinary) =>
    transport.onmessage?.(isBinary ? { kind: 'binary' } : { kind: 'text', text: frameText(data) }),
  )
  socket.on('close', (code, reason) => transport.onclose?.(code, reason.toString()))
  socket.on('error', ignoreError) // a 'close' always follows; ws reports 1009 and friends there
  return transport
}

/** The 'error' listener of every socket (one function, not one per socket). */
function ignoreError(): void {}
