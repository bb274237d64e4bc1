// Hands `ask-user mcp`'s stdio from the early front (early-front.ts) to the MCP SDK: the SDK reads the
// lines the front read, then the rest of stdin, as if it had been there from the start; the replies the
// front already gave are dropped from the SDK's output, so none goes out twice.
import { PassThrough, Writable } from 'node:stream'
import type { ReadSegment } from './early-front'
import type { RequestId } from './early-replies'

/** The streams the SDK's stdio transport uses after a handover. */
export interface HandedOver {
  /** The replayed lines, then stdin; ends when stdin ends or closes. */
  input: PassThrough
  /** Writes to stdout, without the SDK's replies to the lines the front answered. */
  output: Writable
  /** Detaches from stdin and pauses it (as the SDK's transport does on close), so the process can exit. */
  release(): void
}

/**
 * Wires the handover; call it in the tick the front resolved (it resumes `stdin`). An answered line
 * is replayed only once the SDK has replied to it (the reply is dropped), as a client waits for the
 * `initialize` result before it sends more: the SDK then sees the session in the order it was sent.
 */
export function handOver(
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
  read: readonly ReadSegment[],
  ended: boolean,
): HandedOver {
  const input = new PassThrough()
  // Heard by the SDK's transport once it listens; never an unhandled 'error' before that.
  input.on('error', () => undefined)
  const awaited = new Map<RequestId, () => void>()
  let queued: Array<Buffer | string> | undefined = []
  let stdinEnded = ended
  const forward = (chunk: Buffer | string): void => void (queued ? queued.push(chunk) : input.write(chunk))
  const end = (): void => {
    stdinEnded = true
    if (!queued) input.end()
  }
  // The SDK's transport hears of a read error as it would on stdin itself.
  const fail = (error: Error): void => void input.destroy(error)
  if (!ended) {
    stdin.on('data', forward)
    stdin.once('end', end)
    stdin.once('close', end)
    stdin.on('error', fail)
    stdin.resume()
  }
  void (async () => {
    for (const segment of read) {
      const { answered } = segment
      const replied =
        answered === undefined ? undefined : new Promise<void>((resolve) => awaited.set(answered, resolve))
      input.write(segment.bytes)
      await replied
    }
    for (const chunk of queued) input.write(chunk)
    queued = undefined
    if (stdinEnded) input.end()
  })()
  const release = (): void => {
    stdin.off('data', forward)
    stdin.off('end', end)
    stdin.off('close', end)
    stdin.off('error', fail)
    if (stdin.listenerCount('data') === 0) stdin.pause()
  }
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const id = awaited.size > 0 ? responseId(chunk) : undefined
      const replied = id === undefined ? undefined : awaited.get(id)
      if (id !== undefined && replied) {
        awaited.delete(id)
        replied()
        return done()
      }
      if (stdout.write(chunk)) done()
      else stdout.once('drain', () => done())
    },
  })
  return { input, output, release }
}

/** The id of a JSON-RPC response line (the SDK writes one message per write), or undefined for anything else. */
function responseId(chunk: Buffer | string): RequestId | undefined {
  try {
    const message = JSON.parse(chunk.toString()) as unknown
    if (message === null || typeof message !== 'object' || 'method' in message || !('id' in message)) return undefined
    const { id } = message
    return typeof id === 'string' || typeof id === 'number' ? id : undefined
  } catch {
    return undefined
  }
}
