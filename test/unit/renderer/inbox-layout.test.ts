import { describe, expect, it } from 'vitest'
import {
  ASK_ROW_PX,
  buildLayout,
  firstRowBelow,
  HEADER_BASE_PX,
  HEADER_CWD_PX,
  HEADER_TITLE_PX,
  renderedIndexes,
  revealScrollTop,
  visibleRange,
} from '../../../renderer/src/lib/inbox-layout'
import { groupByAgent } from '../../../renderer/src/lib/group-asks'
import type { AgentInfo, Ask } from '../../../shared/ask'

const ask = (askId: string, agent: AgentInfo, receivedAt: number): Ask => ({
  kind: 'question',
  askId,
  agent,
  receivedAt,
  questions: [{ id: 'q', question: `Question ${askId}?`, options: [{ label: 'Yes' }, { label: 'No' }] }],
})

const plain: AgentInfo = { name: 'plain' }
const full: AgentInfo = { name: 'full', title: 'Refactor', cwd: '/src/app' }

describe('buildLayout', () => {
  // full has waited longest, so its group comes first; inside a group, oldest first.
  const layout = buildLayout(groupByAgent([ask('p1', plain, 2), ask('p2', plain, 3), ask('f1', full, 1)]))

  it('lays out each header, then its asks, with exact offsets', () => {
    const fullHeader = HEADER_BASE_PX + HEADER_TITLE_PX + HEADER_CWD_PX
    expect(layout.rows.map((row) => [row.kind, row.key, row.top, row.height])).toEqual([
      ['header', 'agent:' + layout.rows[0]!.key.slice(6), 0, fullHeader],
      ['ask', 'f1', fullHeader, ASK_ROW_PX],
      ['header', layout.rows[2]!.key, fullHeader + ASK_ROW_PX, HEADER_BASE_PX],
      ['ask', 'p1', fullHeader + ASK_ROW_PX + HEADER_BASE_PX, ASK_ROW_PX],
      ['ask', 'p2', fullHeader + 2 * ASK_ROW_PX + HEADER_BASE_PX, ASK_ROW_PX],
    ])
    expect(layout.totalHeight).toBe(fullHeader + HEADER_BASE_PX + 3 * ASK_ROW_PX)
  })

  it('numbers asks over the whole inbox, not per group (aria-posinset / aria-setsize)', () => {
    const positions = layout.rows.flatMap((row) => (row.kind === 'ask' ? [[row.key, row.position]] : []))
    expect(positions).toEqual([
      ['f1', 1],
      ['p1', 2],
      ['p2', 3],
    ])
    expect(layout.askCount).toBe(3)
    expect([...layout.rowOfAsk]).toEqual([
      ['f1', 1],
      ['p1', 3],
      ['p2', 4],
    ])
  })

  it('is empty for an empty inbox', () => {
    expect(buildLayout([])).toEqual({ rows: [], totalHeight: 0, askCount: 0, rowOfAsk: new Map() })
    expect(visibleRange([], 0, 500)).toEqual({ start: 0, end: 0 })
  })
})

describe('windowing', () => {
  // 200 agents × 50 asks: 10,000 asks, 10,200 rows.
  const asks: Ask[] = []
  for (let a = 0; a < 200; a++)
    for (let k = 0; k < 50; k++) asks.push(ask(`a${a}-${k}`, { name: `agent-${a}` }, a * 100 + k))
  const layout = buildLayout(groupByAgent(asks))
  const groupHeight = HEADER_BASE_PX + 50 * ASK_ROW_PX

  it('finds the first row under a point by binary search', () => {
    expect(firstRowBelow(layout.rows, 0)).toBe(0)
    expect(firstRowBelow(layout.rows, HEADER_BASE_PX - 1)).toBe(0)
    expect(firstRowBelow(layout.rows, HEADER_BASE_PX)).toBe(1)
    expect(firstRowBelow(layout.rows, groupHeight)).toBe(51)
    expect(firstRowBelow(layout.rows, layout.totalHeight)).toBe(layout.rows.length)
  })

  it('renders a viewport of rows plus the overscan, wherever the list is scrolled', () => {
    // 600 px falls in row 11 (a 36 px header, then 52 px rows: 36 + 11 × 52 = 608); four more after it.
    expect(visibleRange(layout.rows, 0, 600, 4)).toEqual({ start: 0, end: 16 })
    // In the middle: the rows that intersect 500 000 … 500 600, four more on each side.
    const middle = visibleRange(layout.rows, 500_000, 600, 4)
    const first = layout.rows[middle.start + 4]!
    const last = layout.rows[middle.end - 5]!
    expect(first.top).toBeLessThanOrEqual(500_000)
    expect(first.top + first.height).toBeGreaterThan(500_000)
    expect(last.top).toBeLessThanOrEqual(500_600)
    expect(last.top + last.height).toBeGreaterThan(500_600)
    expect(middle.end - middle.start).toBeLessThanOrEqual(Math.ceil(600 / ASK_ROW_PX) + 2 + 8)
    // Past the end (a shrinking list): the last rows, never out of bounds.
    expect(visibleRange(layout.rows, layout.totalHeight + 1000, 600, 4)).toEqual({
      start: layout.rows.length - 4,
      end: layout.rows.length,
    })
  })

  it('a negative scroll (overscroll) counts as the top', () => {
    expect(visibleRange(layout.rows, -80, 600, 0)).toEqual(visibleRange(layout.rows, 0, 600, 0))
  })
})

describe('revealScrollTop', () => {
  const row = { top: 1000, height: 52 }
  it('leaves a row that is on screen where it is', () => {
    expect(revealScrollTop(row, 900, 200)).toBeUndefined()
    expect(revealScrollTop(row, 1000, 52)).toBeUndefined()
  })
  it('scrolls up to a row above, keeping room for its header', () => {
    expect(revealScrollTop(row, 1100, 300)).toBe(1000)
    expect(revealScrollTop(row, 1100, 300, 36)).toBe(964)
    expect(revealScrollTop({ top: 20, height: 52 }, 100, 300, 36)).toBe(0)
  })
  it('scrolls down just enough for a row below', () => {
    expect(revealScrollTop(row, 0, 600)).toBe(1052 - 600)
    expect(revealScrollTop(row, 500, 530)).toBe(1052 - 530)
  })
})

describe('renderedIndexes', () => {
  it('is the range, with the selected row added where it falls outside', () => {
    expect(renderedIndexes({ start: 10, end: 14 }, undefined)).toEqual([10, 11, 12, 13])
    expect(renderedIndexes({ start: 10, end: 14 }, 12)).toEqual([10, 11, 12, 13])
    expect(renderedIndexes({ start: 10, end: 14 }, 3)).toEqual([3, 10, 11, 12, 13])
    expect(renderedIndexes({ start: 10, end: 14 }, 9000)).toEqual([10, 11, 12, 13, 9000])
  })
})
