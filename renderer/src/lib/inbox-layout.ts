import type { Ask } from '../../../shared/ask'
import type { AgentGroup } from './group-asks'

/**
 * The inbox list as fixed-height rows, so a window of 10,000 asks renders only the rows on screen.
 * Every height here is exact: the list's CSS gives each row the height this module says (in CSS px),
 * so the offsets are computed, never measured.
 */

/** Height of an ask row (summary line + meta line). */
export const ASK_ROW_PX = 52
/** Height of a group header with the agent's name only (the top gap before the group included). */
export const HEADER_BASE_PX = 36
/** Extra height for the agent's title line, and for its cwd line. */
export const HEADER_TITLE_PX = 18
export const HEADER_CWD_PX = 16

/** One row of the list: an agent's header, or one of its asks. */
export type InboxRow =
  | { kind: 'header'; key: string; group: AgentGroup; top: number; height: number }
  /** `position` is the ask's 1-based place in the whole inbox (`aria-posinset`). */
  | { kind: 'ask'; key: string; ask: Ask; position: number; top: number; height: number }

/** The rows of the whole inbox with their offsets; rebuilt only when the set of asks changes. */
export interface InboxLayout {
  rows: InboxRow[]
  /** Sum of all row heights (the scroll height of the list's content). */
  totalHeight: number
  /** How many asks (`aria-setsize`). */
  askCount: number
  /** Row index of each ask, by askId. */
  rowOfAsk: ReadonlyMap<string, number>
}

/** The height of a group's header row: the name line, plus the title and cwd lines when present. */
export function headerHeight(group: AgentGroup): number {
  return HEADER_BASE_PX + (group.agent.title ? HEADER_TITLE_PX : 0) + (group.agent.cwd ? HEADER_CWD_PX : 0)
}

/** Lays out groups (in list order) as rows: each header, then its asks. O(rows). */
export function buildLayout(groups: readonly AgentGroup[]): InboxLayout {
  const rows: InboxRow[] = []
  const rowOfAsk = new Map<string, number>()
  let top = 0
  let position = 0
  for (const group of groups) {
    const height = headerHeight(group)
    rows.push({ kind: 'header', key: `agent:${group.key}`, group, top, height })
    top += height
    for (const ask of group.asks) {
      rowOfAsk.set(ask.askId, rows.length)
      rows.push({ kind: 'ask', key: ask.askId, ask, position: ++position, top, height: ASK_ROW_PX })
      top += ASK_ROW_PX
    }
  }
  return { rows, totalHeight: top, askCount: position, rowOfAsk }
}

/** First row index whose bottom edge is below `y` (rows sorted by `top`); rows.length if none. O(log n). */
export function firstRowBelow(rows: readonly InboxRow[], y: number): number {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const row = rows[mid]!
    if (row.top + row.height > y) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * The rows to render for a viewport: `[start, end)` covering `scrollTop … scrollTop + viewportHeight`,
 * widened by `overscan` rows on each side (so a small scroll shows rows already laid out). O(log n).
 */
export function visibleRange(
  rows: readonly InboxRow[],
  scrollTop: number,
  viewportHeight: number,
  overscan = 4,
): { start: number; end: number } {
  if (rows.length === 0) return { start: 0, end: 0 }
  const top = Math.max(0, scrollTop)
  const first = firstRowBelow(rows, top)
  const last = firstRowBelow(rows, top + Math.max(0, viewportHeight))
  return { start: Math.max(0, first - overscan), end: Math.min(rows.length, last + 1 + overscan) }
}

/**
 * The scroll position that shows a row whole with the least movement, or undefined when it already
 * is on screen. A row above the viewport goes to its top edge; one below, to its bottom edge.
 * `above` (e.g. its group header's height) is kept visible above the row when scrolling up to it.
 */
export function revealScrollTop(
  row: { top: number; height: number },
  scrollTop: number,
  viewportHeight: number,
  above = 0,
): number | undefined {
  if (row.top < scrollTop) return Math.max(0, row.top - above)
  const bottom = row.top + row.height
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight)
  return undefined
}

/** The row indexes to render: the visible range, plus `pinned` (the selected row, to keep its focus). */
export function renderedIndexes(range: { start: number; end: number }, pinned: number | undefined): number[] {
  const out: number[] = []
  if (pinned !== undefined && pinned < range.start) out.push(pinned)
  for (let i = range.start; i < range.end; i++) out.push(i)
  if (pinned !== undefined && pinned >= range.end) out.push(pinned)
  return out
}
