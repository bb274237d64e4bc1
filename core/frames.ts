import type { Duplex } from 'node:stream'
import type { RawData, WebSocket } from 'ws'

/**
 * A peer that lets this much outgoing data pile up unread (bytes) is terminated instead of growing the
 * companion's memory without bound; windows reconnect and get a fresh snapshot.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024

/** The TCP stream under each accepted WebSocket, for batching its writes (see {@link sendText}). */
const transports = new WeakMap<WebSocket, Duplex>()
const corked = new WeakSet<Duplex>()

/** Remembers the stream a WebSocket was upgraded from, so frames sent to it in one tick share a write. */
export function registerTransport(socket: WebSocket, stream: Duplex): void {
  transports.set(socket, stream)
}

/**
 * Sends text on an open socket; terminates a peer that stopped reading (see {@link MAX_BUFFERED_BYTES}).
 * Every frame sent to one socket in the same tick leaves in one write: the stream is corked on the
 * first and uncorked on the next tick (a window gets `question/resolved` and `accepted` together, and
 * a system call per frame was the largest cost per ask; docs/performance.md).
 */
export function sendText(socket: WebSocket, text: string): void {
  if (socket.readyState !== socket.OPEN) return
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) return socket.terminate()
  const stream = transports.get(socket)
  if (stream && !corked.has(stream)) {
    corked.add(stream)
    stream.cork()
    process.nextTick(() => {
      corked.delete(stream)
      stream.uncork()
    })
  }
  socket.send(text)
}

/** The result of reading one text frame as a JSON object. */
export type ParsedFrame = { ok: true; frame: Record<string, unknown> } | { ok: false; message: string }

/** Decodes a ws message (Buffer, Buffer[] or ArrayBuffer) as UTF-8 text. */
export function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

/** Parses a text frame that must hold one JSON object with a string `type`. Never throws. */
export function parseJsonFrame(data: RawData | string): ParsedFrame {
  let value: unknown
  try {
    value = JSON.parse(typeof data === 'string' ? data : frameText(data))
  } catch {
    return { ok: false, message: 'the frame is not valid JSON' }
  }
  return checkObjectFrame(value)
}

/** Checks that a decoded frame is a plain object with a string `type`. */
export function checkObjectFrame(value: unknown): ParsedFrame {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'a frame must be a JSON object' }
  }
  const frame = value as Record<string, unknown>
  if (typeof frame['type'] !== 'string') return { ok: false, message: 'a frame needs a string "type"' }
  return { ok: true, frame }
}
