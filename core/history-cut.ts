import { HistoryEntrySchema, type HistoryEntry } from '../shared/ask'

/** What a cut text ends with, so the person sees that it goes on. */
export const CUT_MARK = '…'

/** Longest text kept of a cut entry's envelope fields (agent name, title). */
const ENVELOPE_CHARS = 200

/** The UTF-8 length of `text`, without encoding it when its length alone settles the question. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/**
 * A history line of at most `maxBytes` UTF-8 bytes: `line` itself when it fits, else the same entry
 * with `truncated: true` and every text longer than some bound cut with {@link CUT_MARK} (the longest
 * bound that fits), else only its envelope (askId, kind, agent, title, times, outcome, an approval's
 * decision). The result is always
 * a valid {@link HistoryEntry}, so a cut line loads again after a restart. `line` is our own
 * serialization of a validated entry.
 */
export function boundedHistoryLine(line: string, maxBytes: number): string {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: most lines are settled without encoding them.
  if (line.length * 3 <= maxBytes || utf8Bytes(line) <= maxBytes) return line
  const entry = JSON.parse(line) as HistoryEntry
  for (let chars = Math.floor(maxBytes / 4); chars >= 16; chars = Math.floor(chars / 4)) {
    const cut = { ...(cutTexts(entry, chars) as HistoryEntry), askId: entry.askId, truncated: true as const }
    const text = JSON.stringify(cut)
    if (utf8Bytes(text) <= maxBytes && HistoryEntrySchema.safeParse(cut).success) return text
  }
  return JSON.stringify(envelope(entry))
}

/** Only what identifies the entry: the last resort for one whose structure alone is too long. */
function envelope(entry: HistoryEntry): HistoryEntry {
  const common = {
    askId: entry.askId,
    agent: { name: cutText(entry.agent.name, ENVELOPE_CHARS) },
    ...(entry.title !== undefined ? { title: cutText(entry.title, ENVELOPE_CHARS) } : {}),
    receivedAt: entry.receivedAt,
    settledAt: entry.settledAt,
    ...(entry.undelivered ? { undelivered: true as const } : {}),
    truncated: true as const,
  }
  if (entry.kind === 'question') return { ...common, kind: 'question', questions: [], outcome: entry.outcome }
  return {
    ...common,
    kind: 'approval',
    outcome: entry.outcome,
    ...(entry.decision !== undefined ? { decision: entry.decision } : {}),
  }
}

/** A deep copy of `value` with every string longer than `chars` cut to `chars` plus the mark. */
function cutTexts(value: unknown, chars: number): unknown {
  if (typeof value === 'string') return cutText(value, chars)
  if (Array.isArray(value)) return value.map((item) => cutTexts(item, chars))
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) copy[key] = cutTexts(item, chars)
    return copy
  }
  return value
}

function cutText(text: string, chars: number): string {
  if (text.length <= chars) return text
  // Never split a surrogate pair: a lone half would not survive UTF-8.
  const end = isHighSurrogate(text.charCodeAt(chars - 1)) ? chars - 1 : chars
  return `${text.slice(0, end)}${CUT_MARK}`
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
