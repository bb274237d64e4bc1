// The first reader of `ask-user mcp`'s stdin: it answers the session's opening (early-replies.ts) while
// the MCP SDK has not loaded, keeps every byte it read, and hands the stream over to the SDK with
// those bytes to replay (handover.ts) at the first line it cannot answer or once `tools/list` is answered.
import type { EarlyReplies, RequestId } from './early-replies'

/** A line longer than this (no newline yet) is left to the SDK, which has its own buffer limit. */
const LONGEST_EARLY_LINE = 1024 * 1024

/** A stretch of the bytes read, for the SDK to replay; `answered` when the front replied to it already. */
export interface ReadSegment {
  bytes: Buffer
  answered?: RequestId
}

/** How the early phase ended. */
export type EarlyEnd =
  { kind: 'handover'; read: ReadSegment[]; ended: boolean } | { kind: 'stdin-ended' } | { kind: 'aborted' }

/**
 * Reads `stdin` until a handover is due, writing early replies to `stdout`. Resolves with the bytes
 * read so far, line by line, each answered line with its request id (its SDK reply must not go out twice);
 * or with `stdin-ended` / `aborted` when the session ended while every line had been answered.
 * Its listeners are gone when it resolves and `stdin` is paused (nothing is lost): after a handover
 * the caller attaches its own `data` listener and resumes it.
 */
export function earlyFront(
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
  early: EarlyReplies,
  signal: AbortSignal,
): Promise<EarlyEnd> {
  return new Promise<EarlyEnd>((resolve) => {
    const read: ReadSegment[] = []
    let tail: Buffer = Buffer.alloc(0)
    let finished = false
    const finish = (end: EarlyEnd): void => {
      if (finished) return
      finished = true
      stdin.off('data', onData)
      // Paused, the stream holds no data back from the handover and does not keep the process alive.
      stdin.pause()
      stdin.off('end', onEnd)
      stdin.off('close', onEnd)
      stdin.off('error', onError)
      signal.removeEventListener('abort', onAbort)
      resolve(end)
    }
    const handover = (ended = false): void =>
      finish({ kind: 'handover', read: tail.length > 0 ? [...read, { bytes: tail }] : read, ended })
    function onData(chunk: Buffer | string): void {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      tail = tail.length === 0 ? bytes : Buffer.concat([tail, bytes])
      for (let newline = tail.indexOf(0x0a); newline !== -1; newline = tail.indexOf(0x0a)) {
        const step = early.step(tail.toString('utf8', 0, newline).replace(/\r$/, ''))
        if (step.kind === 'handover') return handover()
        const lineBytes = Buffer.from(tail.subarray(0, newline + 1))
        tail = tail.subarray(newline + 1)
        read.push(step.kind === 'reply' ? { bytes: lineBytes, answered: step.id } : { bytes: lineBytes })
        if (step.kind === 'reply') {
          stdout.write(step.line)
          // The SDK loads after the reply is on its way, off the path of the client's first calls.
          if (step.last) return void setImmediate(() => handover())
        }
      }
      if (tail.length > LONGEST_EARLY_LINE) handover()
    }
    function onEnd(): void {
      // A partial last line is still the SDK's to judge.
      if (tail.length > 0) handover(true)
      else finish({ kind: 'stdin-ended' })
    }
    // As the SDK's transport does, a read error is no reason to crash; the `close` that follows ends the session.
    function onError(): void {}
    function onAbort(): void {
      finish({ kind: 'aborted' })
    }
    if (signal.aborted) return onAbort()
    stdin.on('data', onData)
    stdin.once('end', onEnd)
    stdin.once('close', onEnd)
    stdin.on('error', onError)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
