// "Did you mean …?" for a mistyped option or command: the nearest known name by edit distance.

/**
 * The name in `names` nearest to `typed` when it is near enough to be a typo: at most 2 edits
 * (insert, delete, replace, or swap of two neighbours) and fewer edits than half of `typed`'s length.
 * Undefined when nothing is that near, or when two names are equally near (no guess then).
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const limit = Math.min(2, Math.ceil(typed.length / 2) - 1)
  let best: string | undefined
  let bestDistance = Infinity
  let tied = false
  for (const name of names) {
    const distance = editDistance(typed, name)
    if (distance < bestDistance) [best, bestDistance, tied] = [name, distance, false]
    else if (distance === bestDistance) tied = true
  }
  return bestDistance <= limit && !tied ? best : undefined
}

/** Optimal string alignment distance: Levenshtein plus a swap of two neighbouring characters as one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = distance
    }
  }
  return rows[a.length]![b.length]!
}
