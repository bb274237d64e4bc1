// Test helper: frames received by a test peer, awaited by predicate (never by sleeping).
import { WAIT_MS } from './waits'

/** Frames as they arrive, and a way to wait for the next one that matches. */
export interface FrameQueue<F> {
  /** Every frame received so far, in order. */
  readonly frames: F[]
  /** Records a received frame and wakes the waiters. */
  push(frame: F): void
  /** Marks the end of the stream (the peer closed): waiters with no match reject. */
  end(): void
  /**
   * The first not-yet-consumed frame matching `predicate` (frames already received count), consumed on
   * return; rejects after `timeoutMs` (default 5,000) or once the stream ended without a match, with the
   * frames seen so far in the message.
   */
  next<T extends F = F>(predicate?: (frame: F) => boolean, timeoutMs?: number): Promise<T>
}

/** Creates an empty queue; `label` names the peer in failure messages. */
export function createFrameQueue<F>(label: string): FrameQueue<F> {
  const frames: F[] = []
  const unconsumed: F[] = []
  const waiters = new Set<() => void>()
  let ended = false
  const wakeAll = (): void => {
    for (const wake of [...waiters]) wake()
  }
  return {
    frames,
    push: (frame) => {
      frames.push(frame)
      unconsumed.push(frame)
      wakeAll()
    },
    end: () => {
      ended = true
      wakeAll()
    },
    next: <T extends F>(predicate: (frame: F) => boolean = () => true, timeoutMs = WAIT_MS) =>
      new Promise<T>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer)
          waiters.delete(wake)
        }
        const timer = setTimeout(() => {
          done()
          reject(new Error(`no matching ${label} frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`))
        }, timeoutMs)
        const wake = (): void => {
          const index = unconsumed.findIndex(predicate)
          if (index !== -1) {
            done()
            // The index was just found, so the element exists; `as T` narrows to the caller's frame type.
            resolve(unconsumed.splice(index, 1)[0] as T)
          } else if (ended) {
            done()
            reject(new Error(`${label} closed; got ${JSON.stringify(frames)}`))
          }
        }
        waiters.add(wake)
        wake()
      }),
  }
}
