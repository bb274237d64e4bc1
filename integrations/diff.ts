/** How many unchanged lines a hunk shows before and after the change. */
const CONTEXT = 3

/**
 * A unified-style diff of one replacement in `path` (`old` → `updated`), for a person to read: the
 * lines both share at the start and end are context (at most three each side), the rest is `-` then `+`.
 * Text only: no line numbers (a harness's edit input does not say where in the file the text is).
 */
export function replacementDiff(path: string, old: string, updated: string): string {
  return `--- ${path}\n+++ ${path}\n${hunk(old, updated)}`
}

/** Several replacements in one file (Claude's MultiEdit), one hunk each. */
export function replacementsDiff(path: string, edits: readonly { old: string; updated: string }[]): string {
  return `--- ${path}\n+++ ${path}\n${edits.map((edit) => hunk(edit.old, edit.updated)).join('')}`
}

function hunk(old: string, updated: string): string {
  const a = old === '' ? [] : old.split('\n')
  const b = updated === '' ? [] : updated.split('\n')
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const before = a.slice(Math.max(0, start - CONTEXT), start)
  const after = a.slice(a.length - end, a.length - end + CONTEXT)
  const lines = [
    '@@',
    ...before.map((line) => ` ${line}`),
    ...a.slice(start, a.length - end).map((line) => `-${line}`),
    ...b.slice(start, b.length - end).map((line) => `+${line}`),
    ...after.map((line) => ` ${line}`),
  ]
  return `${lines.join('\n')}\n`
}
