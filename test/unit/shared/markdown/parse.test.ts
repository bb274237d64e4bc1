import { describe, expect, it } from 'vitest'
import { droppedText } from '../../../../shared/markdown/drop-check'
import { inlinePlainText, renderBlocks, renderInline } from '../../../../shared/markdown/parse'
import { MAX_DEPTH } from '../../../../shared/markdown/tree'

const text = (value: string) => ({ type: 'text', text: value })

describe('the token map (allow-list)', () => {
  it('inline: code spans, emphasis, strong, strikethrough, links; the rest stays source text', () => {
    expect(renderInline('Run `npm ci` *now*, **really**, ~~later~~ [docs](https://example.com/d)')).toEqual({
      kind: 'inline',
      children: [
        text('Run '),
        { type: 'code', text: 'npm ci' },
        text(' '),
        { type: 'em', children: [text('now')] },
        text(', '),
        { type: 'strong', children: [text('really')] },
        text(', '),
        { type: 's', children: [text('later')] },
        text(' '),
        { type: 'link', href: 'https://example.com/d', children: [text('docs')] },
      ],
    })
  })

  it('raw HTML, autolinked bare URLs and entities are text, never elements', () => {
    expect(renderInline('<img src=x onerror=alert(1)> www.example.com https://x.y &lt;b&gt;')).toEqual({
      kind: 'inline',
      children: [text('<img src=x onerror=alert(1)> www.example.com https://x.y <b>')],
    })
  })

  it('an image is a chip of alt text and host, its URL kept only as text', () => {
    expect(renderInline('![the *chart*](https://leak.example/p.png?d=secret)')).toEqual({
      kind: 'inline',
      children: [{ type: 'image', alt: 'the chart', host: 'leak.example', url: 'https://leak.example/p.png?d=secret' }],
    })
    expect(renderInline('![x](javascript:alert(1))')).toEqual({
      kind: 'inline',
      children: [text('![x](javascript:alert(1))')],
    })
  })

  it('inline fields keep line breaks, indentation and line-start #, 1. and *', () => {
    const source = '# not a heading\n1. not a list\n* not a bullet\n    indented `code`\ntrailing two  \nend'
    expect(renderInline(source)).toEqual({
      kind: 'inline',
      children: [
        text('# not a heading\n1. not a list\n* not a bullet\n    indented '),
        { type: 'code', text: 'code' },
        text('\ntrailing two  \nend'),
      ],
    })
  })

  it('block: headings, lists, tables, fenced code, quotes, rules', () => {
    expect(
      renderBlocks(
        '## Plan\n\n1. one\n2. two\n\n| a | b |\n|:-:|--|\n| 1 | 2 |\n\n```sh\nrm -rf /\n```\n\n> note\n\n***',
      ),
    ).toEqual({
      kind: 'blocks',
      blocks: [
        { type: 'heading', level: 2, children: [text('Plan')] },
        {
          type: 'list',
          ordered: true,
          start: 1,
          items: [
            [{ type: 'paragraph', tight: true, children: [text('one')] }],
            [{ type: 'paragraph', tight: true, children: [text('two')] }],
          ],
        },
        {
          type: 'table',
          head: [
            { align: 'center', children: [text('a')] },
            { align: undefined, children: [text('b')] },
          ],
          rows: [
            [
              { align: 'center', children: [text('1')] },
              { align: undefined, children: [text('2')] },
            ],
          ],
        },
        { type: 'code-block', text: 'rm -rf /\n', info: 'sh' },
        { type: 'quote', children: [{ type: 'paragraph', tight: false, children: [text('note')] }] },
        { type: 'rule' },
      ],
    })
  })

  it('reference links resolve through the gate; their definitions are not counted as dropped', () => {
    expect(renderBlocks('See [the docs][d].\n\n[d]: https://example.com "Docs"')).toEqual({
      kind: 'blocks',
      blocks: [
        {
          type: 'paragraph',
          tight: false,
          children: [
            text('See '),
            { type: 'link', href: 'https://example.com/', children: [text('the docs')] },
            text('.'),
          ],
        },
      ],
    })
    expect(renderBlocks('[x][d]\n\n[d]: javascript:alert(1)')).toEqual({
      kind: 'blocks',
      blocks: [
        { type: 'paragraph', tight: false, children: [text('[x][d]')] },
        { type: 'paragraph', tight: false, children: [text('[d]: javascript:alert(1)')] },
      ],
    })
  })
})

describe('depth and drop detection (plain monospace fallback, text never lost)', () => {
  it(`caps nesting at ${MAX_DEPTH}: deep quotes, lists and emphasis fall back to the source`, () => {
    const quotes = `${'> '.repeat(40)}deep`
    expect(renderBlocks(quotes)).toEqual({ kind: 'plain', text: quotes, reason: 'depth' })
    const lists = `${'- '.repeat(30)}x`
    expect(renderBlocks(lists)).toEqual({ kind: 'plain', text: lists, reason: 'depth' })
    const emphasis = `${'*'.repeat(60)}a${'*'.repeat(60)}`
    expect(renderInline(emphasis)).toEqual({ kind: 'plain', text: emphasis, reason: 'depth' })
    const links = `${'['.repeat(30)}x${'](https://e.com)'.repeat(30)}`
    expect(renderInline(links).kind).not.toBe('plain') // nested links are not links: nothing deep
  })

  it('just under the cap still renders', () => {
    expect(renderBlocks(`${'> '.repeat(MAX_DEPTH - 2)}ok`).kind).toBe('blocks')
  })

  it('32 KB of nesting stays bounded and falls back', () => {
    const huge = '>'.repeat(32 * 1024)
    const started = performance.now()
    expect(renderBlocks(`${huge} x`).kind).toBe('plain')
    expect(renderInline(`${'*'.repeat(16 * 1024)}x${'*'.repeat(16 * 1024)}`).kind).toBe('plain')
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('droppedText compares letters and digits, not counting entity names', () => {
    expect(droppedText('a &amp; b', 'a & b')).toBe(false)
    expect(droppedText('abc def', 'abc')).toBe(true)
    expect(droppedText('**x**', 'x')).toBe(false)
  })

  it('droppedText skips ordered-list numbers at line starts (after blank lines, quotes, bullets), not elsewhere', () => {
    expect(droppedText('\n\n1. a\n> 12) b &amp; c\n  - 7. d', 'a b & c d')).toBe(false)
    expect(droppedText('a1. b', 'a b')).toBe(true)
    expect(droppedText('1. a\n\n\n2. b', 'a')).toBe(true)
  })

  it('parses each field once (the same object for the same text)', () => {
    expect(renderBlocks('# same')).toBe(renderBlocks('# same'))
    expect(renderInline('*same*')).toBe(renderInline('*same*'))
  })
})

describe('inlinePlainText (notifications and the tray)', () => {
  it('is the text without Markdown syntax', () => {
    expect(inlinePlainText('Deploy `main` to **prod**? See [runbook](https://x.y)')).toBe(
      'Deploy main to prod? See runbook',
    )
  })
})
