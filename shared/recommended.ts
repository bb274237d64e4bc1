/**
 * A trailing "(Recommended)" marker in an option label, in English or Chinese, with ASCII or
 * full-width parentheses, case-insensitive: "(Recommended)", "（推荐）", "(推荐)", "（Recommended）".
 * It starts at the parenthesis (the spaces before it are trimmed apart): a leading `\s*` would be tried
 * from every space of a long run of them, rescanning the run each time.
 */
const RECOMMENDED_SUFFIX = /[(（]\s*(?:recommended|推荐)\s*[)）]\s*$/iu

/** The label as it should be displayed and whether it carries the recommended marker. */
export interface LabelDisplay {
  /** The label without the marker (the raw label is still what an answer returns). */
  text: string
  recommended: boolean
}

/** Splits a recommended marker off an option label for display. Labels that are only a marker stay as they are. */
export function parseRecommended(label: string): LabelDisplay {
  const match = RECOMMENDED_SUFFIX.exec(label)
  if (!match) return { text: label, recommended: false }
  const text = label.slice(0, match.index).trimEnd()
  if (text.trim() === '') return { text: label, recommended: true }
  return { text, recommended: true }
}
