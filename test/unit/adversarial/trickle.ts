// Test helper: a raw TCP peer that trickles bytes to the companion and reports when it was cut off.
import { connect } from 'node:net'

/** What {@link trickle} observed. */
export interface TrickleResult {
  /** 'closed': the companion hung up while bytes were still coming; 'finished': every byte was sent first. */
  outcome: 'closed' | 'finished'
  /** Milliseconds from the first byte to the close (or to the last byte). */
  elapsedMs: number
  /** Everything the companion answered (latin1). */
  received: string
}

/**
 * Connects to 127.0.0.1:`port` and sends `text` one byte every `everyMs` (a slow-loris peer that never
 * idles long enough for an idle timeout). Bounded: it stops after the last byte of `text`.
 */
export function trickle(port: number, text: string, everyMs: number): Promise<TrickleResult> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const started = Date.now()
    let received = ''
    let sent = 0
    let timer: NodeJS.Timeout | undefined
    socket.on('error', () => undefined)
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    const finish = (outcome: TrickleResult['outcome']): void => {
      clearInterval(timer)
      socket.destroy()
      resolve({ outcome, elapsedMs: Date.now() - started, received })
    }
    socket.once('close', () => finish('closed'))
    socket.once('connect', () => {
      timer = setInterval(() => {
        if (sent >= text.length) return finish('finished')
        socket.write(text[sent++] ?? '')
      }, everyMs)
    })
  })
}
