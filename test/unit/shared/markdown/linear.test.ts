import { describe, expect, it } from 'vitest'
import { HOSTILE_SHAPES } from '../../../../bench/markdown-shapes'
import { markedQuestion, plainQuestion, truncate, BODY_LIMIT } from '../../../../electron/main/notification-text'
import { inlinePlainText, renderBlocks, renderInline } from '../../../../shared/markdown/parse'
import type { Rendered } from '../../../../shared/markdown/tree'

// Parsing is linear in the input. Speed is the bench's (`npm run bench -- --only=markdown`: every
// shape within 2× markdown-it alone, no wall clock here); each hostile shape is parsed at n and 4n
// characters (an eighth and half of the protocol's cap), and must come back whole. Before the fix,
// the blank-lines shapes took about a minute at 4n (the list-number scan was quadratic: 4× the size,
// 16× the time), past any unit test's time, and so did a notification's text with such a run.
const CAP = 200_000

/** A rendering that kept the field: the tree (the drop check vouches for its text) or the exact source. */
function expectWhole(rendered: Rendered, source: string): void {
  if (rendered.kind === 'plain') {
    expect(rendered.text).toBe(source)
    return
  }
  expect(rendered.kind).toMatch(/^(blocks|inline)$/)
}

describe.each(HOSTILE_SHAPES.map((shape) => [shape.name, shape] as const))('hostile Markdown: %s', (_name, shape) => {
  it.each([CAP / 8, CAP / 2])('parses %i characters as blocks and inline, keeping the text', (chars) => {
    const text = shape.text(chars)
    expect(text).toHaveLength(chars)
    expectWhole(renderBlocks(text), text)
    expectWhole(renderInline(text), text)
  })
})

describe('hostile Markdown: outcomes', () => {
  it('blank lines at the cap are an empty document, not a fallback', () => {
    expect(renderBlocks('\n'.repeat(CAP))).toEqual({ kind: 'blocks', blocks: [] })
  })

  it('a line of 100,000 escapes (as many inline nodes) renders inline', () => {
    const text = '\\*'.repeat(CAP / 2)
    const rendered = renderInline(text)
    expect(rendered.kind).toBe('inline')
    expect(inlinePlainText(text)).toBe('*'.repeat(CAP / 2))
  })

  it('the desktop notification and tray text go through the same parse: blank lines at the cap, then the question', () => {
    const question = `${'\n'.repeat(CAP - 20)}Deploy **now**?`
    expect(truncate(markedQuestion(question), BODY_LIMIT)).toBe('Deploy now?')
    expect(plainQuestion(question).trim()).toBe('Deploy now?')
  })

  it('list numbers after blank lines, quotes and bullets are still syntax, not dropped text', () => {
    const plan = `\n\n\n1. one\n\n> 2) two\n\n- 3. three\n\n  \t> * 4. four`
    expect(renderBlocks(plan).kind).toBe('blocks')
  })
})
