import { describe, expect, it } from 'vitest'
import { keptMarkdownAsks, releaseMarkdown, renderMarkdown } from '../../../renderer/src/lib/markdown-cache'

/** Enough distinct texts to push anything out of the parser's own bounded cache (500 entries). */
function churnParserCache(): void {
  for (let i = 0; i < 600; i++) renderMarkdown(`churn **${i}** ${Math.random()}`, 'inline')
}

describe('markdown-cache', () => {
  const plan = '## Plan\n\n1. Rename `a`\n2. Fix [the issue](https://example.com/1)\n'

  it('parses an ask’s field once and keeps it while the ask is listed', () => {
    const first = renderMarkdown(plan, 'block', 'ask-1')
    expect(first.kind).toBe('blocks')
    churnParserCache()
    // The same tree, not a new parse: moving back to the ask costs no parsing.
    expect(renderMarkdown(plan, 'block', 'ask-1')).toBe(first)
    // Inline and block of the same text are different trees.
    expect(renderMarkdown(plan, 'inline', 'ask-1')).not.toBe(first)
    releaseMarkdown('ask-1')
  })

  it('releases an ask’s trees when it leaves', () => {
    const before = keptMarkdownAsks()
    const first = renderMarkdown(plan, 'block', 'ask-2')
    expect(keptMarkdownAsks()).toBe(before + 1)
    releaseMarkdown('ask-2')
    expect(keptMarkdownAsks()).toBe(before)
    churnParserCache()
    const again = renderMarkdown(plan, 'block', 'ask-2')
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
    releaseMarkdown('ask-2')
  })

  it('keeps nothing for text without an ask (history)', () => {
    const before = keptMarkdownAsks()
    renderMarkdown('**history** text', 'inline')
    expect(keptMarkdownAsks()).toBe(before)
  })
})
