import { beforeAll, describe, expect, it } from 'vitest'
import {
  keptMarkdownAsks,
  markdownLoaded,
  markdownReady,
  releaseMarkdown,
  renderMarkdown,
  useMarkdownParser,
} from '../../../renderer/src/lib/markdown-cache'

/** Enough distinct texts to push anything out of the parser's own bounded cache (500 entries). */
function churnParserCache(): void {
  for (let i = 0; i < 600; i++) renderMarkdown(`churn **${i}** ${Math.random()}`, 'inline')
}

const plan = '## Plan\n\n1. Rename `a`\n2. Fix [the issue](https://example.com/1)\n'

// First in this file, while no parser was handed in: the phone's first screen before its parser loads.
describe('markdown-cache before its parser is handed in', () => {
  it('renders nothing and keeps nothing until the parser is handed in, then parses', async () => {
    expect(markdownLoaded()).toBe(false)
    expect(renderMarkdown(plan, 'block', 'ask-0')).toBeUndefined()
    expect(keptMarkdownAsks()).toBe(0)
    let ready = false
    void markdownReady().then(() => (ready = true))
    useMarkdownParser(await import('../../../shared/markdown/parse'))
    await markdownReady()
    expect(ready).toBe(true)
    expect(markdownLoaded()).toBe(true)
    expect(renderMarkdown(plan, 'block', 'ask-0')).toMatchObject({ kind: 'blocks' })
    releaseMarkdown('ask-0')
  })
})

describe('markdown-cache', () => {
  beforeAll(async () => useMarkdownParser(await import('../../../shared/markdown/parse')))

  it('parses an ask’s field once and keeps it while the ask is listed', () => {
    const first = renderMarkdown(plan, 'block', 'ask-1')
    expect(first?.kind).toBe('blocks')
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
