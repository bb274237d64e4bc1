import { HistoryEntrySchema, type HistoryEntry } from '../shared/ask'
import { fromV1HistoryEntry, V1HistoryEntrySchema } from './ask-v1'

/**
 * One line of the history file, read: an entry of today's shape, or one written by an earlier version
 * (no `kind`: an approval had `questions: []` and the outcome `answered` with its `decision`) upgraded to
 * today's shape, so an old history still loads and shows a decision as a decision. Undefined for a value
 * that is neither (an edited or foreign line): it is skipped, as a torn line is.
 */
export function readHistoryEntry(value: unknown): HistoryEntry | undefined {
  const entry = HistoryEntrySchema.safeParse(value)
  if (entry.success) return entry.data
  if (typeof value !== 'object' || value === null || 'kind' in value) return undefined
  const v1 = V1HistoryEntrySchema.safeParse(value)
  return v1.success ? fromV1HistoryEntry(v1.data) : undefined
}
