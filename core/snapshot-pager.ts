import type { Ask } from '../shared/ask'
import { askJson } from './ask-json'

/**
 * The bound of one `snapshot` frame, in bytes of JSON (UTF-8): the oldest pending asks up to this
 * size go in the snapshot, or exactly one ask when that one alone is larger. Every later chunk of
 * `ask/added` frames is bounded the same way before the pager waits for the window to read.
 * 256 KiB rather than 1 MiB: a window validates and applies the snapshot before its first screen, and
 * at 1 MiB (~3,700 typical asks) that made a 10,000-ask inbox's first screen 1.7–1.9× a 1,000-ask
 * one's; at 256 KiB (~930) it is flat (docs/performance.md, "Inbox window at 10,000 asks").
 */
export const SNAPSHOT_BYTES = 256 * 1024

/** One ask ready to send: the ask and its JSON (serialized once, used for the byte count and the frame). */
export interface SerializedAsk {
  ask: Ask
  json: string
}

/**
 * Takes asks from the front of `queue` (starting at `from`) while their JSON stays within `bound`
 * bytes, and always at least one. Returns the index after the last one taken.
 */
export function takeBounded(queue: readonly Ask[], from: number, bound: number, out: SerializedAsk[]): number {
  let bytes = 0
  let at = from
  while (at < queue.length) {
    const ask = queue[at] as Ask
    const json = askJson(ask)
    const size = Buffer.byteLength(json)
    if (out.length > 0 && bytes + size > bound) break
    out.push({ ask, json })
    bytes += size
    at++
    if (bytes >= bound) break
  }
  return at
}

/** `ask/added` as JSON, from the ask's JSON (the same text `JSON.stringify` of the frame gives). */
export const addedJson = (askText: string): string => `{"type":"ask/added","ask":${askText}}`

/**
 * The rest of an inbox that did not fit in a window's snapshot, sent as `ask/added` frames in
 * arrival order, a bounded chunk at a time. While it lasts, the hub routes that window's broadcasts
 * through it, so the window's view stays exactly the registry's: an ask added meanwhile joins the
 * end of the queue; an ask resolved before it was sent is dropped from the queue and its
 * `ask/settled` is not sent (the window never heard of it); any other frame passes at once.
 */
export class SnapshotBacklog {
  private readonly queue: Ask[]
  /** Ids still to send (an id resolved meanwhile leaves this set and is skipped). */
  private readonly unsent = new Set<string>()
  private at = 0

  constructor(rest: readonly Ask[]) {
    this.queue = [...rest]
    for (const ask of rest) this.unsent.add(ask.askId)
  }

  /** True once every queued ask was sent or dropped. */
  get done(): boolean {
    return this.at >= this.queue.length
  }

  /** An ask added while the backlog lasts: queued behind the rest. */
  push(ask: Ask): void {
    this.queue.push(ask)
    this.unsent.add(ask.askId)
  }

  /** An ask changed while still queued: the queued copy is replaced (true), so the window gets it as it is now. */
  replace(ask: Ask): boolean {
    if (!this.unsent.has(ask.askId)) return false
    const at = this.queue.findIndex((queued, index) => index >= this.at && queued.askId === ask.askId)
    if (at < 0) return false
    this.queue[at] = ask
    return true
  }

  /** An ask resolved: true when it was still queued (dropped; its settlement must not be sent). */
  drop(askId: string): boolean {
    return this.unsent.delete(askId)
  }

  /** The next chunk (at most `bound` bytes of JSON, or one ask), in order; empty once done. */
  next(bound: number): SerializedAsk[] {
    const out: SerializedAsk[] = []
    let bytes = 0
    while (this.at < this.queue.length) {
      const ask = this.queue[this.at] as Ask
      if (!this.unsent.has(ask.askId)) {
        this.at++
        continue
      }
      const json = askJson(ask)
      const size = Buffer.byteLength(json)
      if (out.length > 0 && bytes + size > bound) break
      this.unsent.delete(ask.askId)
      this.at++
      out.push({ ask, json })
      bytes += size
      if (bytes >= bound) break
    }
    return out
  }
}
