/**
 * The newest lines of the history in memory, kept as the batches they were appended in: one flat
 * string per batch (the text that went to the file) instead of one string per line. A line is read
 * back only by a window's `history/get` and by compaction; on the answer path each line is built, joined
 * into its batch and dropped young, so the scavenger copies one string per batch, not a line and the
 * pieces it was concatenated from per ask (docs/performance.md, "CPU per ask").
 */
export class RecentLines {
  private batches: { text: string; count: number }[] = []
  private total = 0

  constructor(
    /** At least this many of the newest lines are kept; whole batches are dropped past twice as many. */
    private readonly keep: number,
  ) {}

  /** Lines kept (the newest `keep` at least, when that many were added). */
  get size(): number {
    return this.total
  }

  /** Adds the lines of `text` (`count` lines joined by "\n", none empty). */
  add(text: string, count: number): void {
    if (count === 0) return
    this.batches.push({ text, count })
    this.total += count
    if (this.total <= 2 * this.keep) return
    let drop = 0
    while (drop < this.batches.length && this.total - this.batches[drop]!.count >= this.keep) this.total -= this.batches[drop++]!.count
    this.batches.splice(0, drop)
  }

  /** The kept lines, newest first, split from their batches only as far as the caller reads. */
  *newestFirst(): Generator<string> {
    for (let b = this.batches.length - 1; b >= 0; b--) {
      const lines = this.batches[b]!.text.split('\n')
      for (let i = lines.length - 1; i >= 0; i--) yield lines[i]!
    }
  }

  /**
   * The newest `count` lines (at most what is kept), oldest first, as one text joined by "\n" and how
   * many lines it holds: whole batches as they are, only the oldest one needed cut (a compaction
   * rewrites the file with this, so it splits nothing into lines).
   */
  newest(count: number): { text: string; count: number } {
    const parts: string[] = []
    let taken = 0
    for (let b = this.batches.length - 1; b >= 0 && taken < count; b--) {
      const batch = this.batches[b]!
      if (taken + batch.count <= count) {
        parts.push(batch.text)
        taken += batch.count
        continue
      }
      // Only the newest `count - taken` lines of this batch: cut after the newline before them.
      let cut = batch.text.length
      for (let i = count - taken; i > 0; i--) cut = batch.text.lastIndexOf('\n', cut - 1)
      parts.push(batch.text.slice(cut + 1))
      taken = count
    }
    return { text: parts.reverse().join('\n'), count: taken }
  }
}
