/**
 * Line-based edits of one TOML table, enough for the keys `ask-user setup` adds to a Codex config:
 * single-line `key = value` pairs under a `[table]` header written the way Codex writes it. Every
 * other line (comments, other tables) is kept byte for byte.
 */

const HEADER = /^\s*\[/

/** Where `[table]`'s lines are: the header's index and the end of its body (exclusive), or undefined. */
function findTable(lines: readonly string[], table: string): { header: number; end: number } | undefined {
  const header = lines.findIndex((line) => line.trim() === `[${table}]`)
  if (header === -1) return undefined
  let end = header + 1
  while (end < lines.length && !HEADER.test(lines[end]!)) end++
  // The body ends at its last non-blank line, so new keys go before the blank line that separates tables.
  while (end > header + 1 && lines[end - 1]!.trim() === '') end--
  return { header, end }
}

function keyOf(line: string): string | undefined {
  return /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1]
}

/** The raw TOML value of `key` in `[table]`, or undefined. */
export function readTomlKey(text: string, table: string, key: string): string | undefined {
  const lines = text.split('\n')
  const found = findTable(lines, table)
  if (!found) return undefined
  const line = lines.slice(found.header + 1, found.end).find((l) => keyOf(l) === key)
  return line?.slice(line.indexOf('=') + 1).trim()
}

/** `text` with `keys` (raw TOML values) set in `[table]`, the table appended when absent. */
export function setTomlKeys(text: string, table: string, keys: Record<string, string>): string {
  const lines = text.split('\n')
  let found = findTable(lines, table)
  if (!found) {
    while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop()
    if (lines.length > 0) lines.push('')
    lines.push(`[${table}]`)
    found = { header: lines.length - 1, end: lines.length }
    lines.push('')
  }
  for (const [key, value] of Object.entries(keys)) {
    const at = lines.slice(found.header + 1, found.end).findIndex((line) => keyOf(line) === key)
    if (at !== -1) lines[found.header + 1 + at] = `${key} = ${value}`
    else {
      lines.splice(found.end, 0, `${key} = ${value}`)
      found = { header: found.header, end: found.end + 1 }
    }
  }
  return lines.join('\n')
}

/** `text` without `keys` in `[table]`; the header goes too when the table is left empty. */
export function removeTomlKeys(text: string, table: string, keys: readonly string[]): string {
  const lines = text.split('\n')
  const found = findTable(lines, table)
  if (!found) return text
  const body = lines.slice(found.header + 1, found.end).filter((line) => !keys.includes(keyOf(line) ?? ''))
  const empty = body.every((line) => line.trim() === '')
  const after = lines.slice(found.end)
  const before = lines.slice(0, found.header)
  if (empty) {
    while (before.length > 0 && before.at(-1)!.trim() === '' && (after[0]?.trim() ?? '') === '') before.pop()
    return [...before, ...after].join('\n')
  }
  return [...before, lines[found.header]!, ...body, ...after].join('\n')
}
