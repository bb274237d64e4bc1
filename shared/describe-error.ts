/** The message of anything thrown: an Error's `message`, else its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A zod issue as the wire and the warnings word it (only its path and message are read). */
export interface IssueLike {
  readonly path: readonly PropertyKey[]
  readonly message: string
}

/**
 * The first issue of a failed parse in one line, `path.to.key: message`; `message` alone for an issue
 * at the root (or `<root>: message` when `root` is given); `fallback` when there is none.
 */
export function describeFirstIssue(issues: readonly IssueLike[], options: { root?: string; fallback?: string } = {}): string {
  const issue = issues[0]
  if (!issue) return options.fallback ?? 'bad shape'
  const path = issue.path.map(String).join('.')
  if (path !== '') return `${path}: ${issue.message}`
  return options.root === undefined ? issue.message : `${options.root}: ${issue.message}`
}
