import { utf8Bytes } from './history-cut'

/** One appended batch: its lines joined by "\n", how many, and its bytes in the file (with the final newline). */
interface Batch {
  text: string
  count: number
  bytes: number
}

/**
 * The newest lines of the history in memory, kept as the batches they were appended in: one flat
 * string per batch (the text that went to the file) instead of one string per line. A line is read
 * back only by a window's `history/get` and by compaction; on the answer path each line is built, joined
 * into its batch and dropped young, so the scavenger copies one string per batch, not a line and the
 * pieces it was concatenated from per ask (docs/performance.md, "CPU per ask").
 *
 * Bounded twice: past twice `keep` lines, whole old batches are dropped while `keep` lines remain;
 * past twice `keepBytes` bytes (UTF-8, a newline per line, as in the file), it is cut to the newest
 * lines within `keepBytes`, cutting the oldest batch it keeps when one batch alone is too large. So it
 * never holds more than twice `keepBytes`, whatever one batch holds.
 */
export class RecentLines {
  private batches: Batch[] = []
  private total = 0
  private totalBytes = 0

  constructor(
    /** At least the newest this many lines are kept; whole batches are dropped past twice as many. */
    private readonly keep: number,
    /** ...and within this many bytes (at most twice as many are held between trims). */
    private readonly keepBytes: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Lines held (the newest `keep` at least, when that many were added within the bytes). */
  get size(): number {
    return this.total
  }

  /** Bytes held (UTF-8, one newline per line). */
  get bytes(): number {
    return this.totalBytes
  }

  /** Adds the lines of `text` (`count` lines joined by "\n", none empty). */
  add(text: string, count: number): void {
    if (count === 0) return
    const bytes = utf8Bytes(text) + 1
    this.batches.push({ text, count, bytes })
    this.total += count
    this.totalBytes += bytes
    if (this.total > 2 * this.keep) this.dropWholeBatches()
    if (this.totalBytes > 2 * this.keepBytes) this.cutToBytes()
  }

  /** Drops the oldest whole batches while at least `keep` lines remain (splits nothing). */
  private dropWholeBatches(): void {
    let drop = 0
    while (drop < this.batches.length && this.total - this.batches[drop]!.count >= this.keep) {
      this.total -= this.batches[drop]!.count
      this.totalBytes -= this.batches[drop++]!.bytes
    }
    this.batches.splice(0, drop)
  }

  /** Keeps only the newest lines within `keepBytes`, cutting the oldest batch kept if need be. */
  private cutToBytes(): void {
    const { from, partial } = this.select(this.total, this.keepBytes)
    this.batches = partial ? [partial, ...this.batches.slice(from + 1)] : this.batches.slice(from + 1)
    this.total = 0
    this.totalBytes = 0
    for (const batch of this.batches) {
      this.total += batch.count
      this.totalBytes += batch.bytes
    }
  }

  /** The kept lines, newest first, split from their batches only as far as the caller reads. */
  *newestFirst(): Generator<string> {
    for (let b = this.batches.length - 1; b >= 0; b--) {
      const lines = this.batches[b]!.text.split('\n')
      for (let i = lines.length - 1; i >= 0; i--) yield lines[i]!
    }
  }

  /**
   * The newest lines within `count` lines and `maxBytes` bytes (default: the kept bound), oldest first,
   * as one text joined by "\n" and how many lines it holds: whole batches as they are, only the oldest
   * one needed cut (a compaction rewrites the file with this, so it splits nothing it does not cut).
   */
  newest(count: number, maxBytes: number = this.keepBytes): { text: string; count: number } {
    const { from, partial } = this.select(count, maxBytes)
    const parts = this.batches.slice(from + 1)
    if (partial) parts.unshift(partial)
    return {
      text: parts.map((batch) => batch.text).join('\n'),
      count: parts.reduce((sum, batch) => sum + batch.count, 0),
    }
  }

  /**
   * The newest whole batches within both bounds start after index `from`; `partial` is the newest
   * part of batch `from` that still fits, if any line of it does.
   */
  private select(count: number, maxBytes: number): { from: number; partial?: Batch } {
    let taken = 0
    let bytes = 0
    let b = this.batches.length - 1
    for (; b >= 0; b--) {
      const batch = this.batches[b]!
      if (taken + batch.count > count || bytes + batch.bytes > maxBytes) break
      taken += batch.count
      bytes += batch.bytes
    }
    if (b < 0) return { from: -1 }
    const partial = newestPart(this.batches[b]!, count - taken, maxBytes - bytes)
    return partial ? { from: b, partial } : { from: b }
  }
}

/** The newest lines of `batch` within `count` lines and `maxBytes` bytes, or undefined when none fits. */
function newestPart(batch: Batch, count: number, maxBytes: number): Batch | undefined {
  let start = batch.text.length
  let taken = 0
  let bytes = 0
  while (taken < count && start > 0) {
    const newline = batch.text.lastIndexOf('\n', start - 1)
    const lineBytes = utf8Bytes(batch.text.slice(newline + 1, start)) + 1
    if (bytes + lineBytes > maxBytes) break
    bytes += lineBytes
    taken++
    start = newline
  }
  if (taken === 0) return undefined
  return { text: batch.text.slice(start + 1), count: taken, bytes }
}
