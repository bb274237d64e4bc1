import MarkdownIt from 'markdown-it'
import { buildBlocks, buildInline, PlainFallback, plainInline } from './build-tree'
import { droppedText, keptBlocks, keptInline, referencesText } from './drop-check'
import type { InlineNode, Rendered } from './tree'
import { safeLinkUrl } from './url-gate'

/**
 * The options markdown-it runs with: a parser only, no raw HTML, no linkify, no typographer. Its
 * `maxNesting` is above our own depth cap, so the tree builder sees (and refuses) any input deep
 * enough to be cut. Exported so that the bench times markdown-it alone with exactly these.
 */
export const MARKDOWN_IT_OPTIONS = { html: false, linkify: false, typographer: false, maxNesting: 40 } as const

/**
 * markdown-it with our URL gate instead of its `validateLink`, so a link or image with any other URL
 * stays literal text. `md.render` is never called.
 */
const md = new MarkdownIt('default', MARKDOWN_IT_OPTIONS)
md.validateLink = (url: string): boolean => safeLinkUrl(url) !== undefined

const CACHE_LIMIT = 500
const cache = new Map<string, Rendered>()

/** Parses once per distinct field: asks re-render often, their text does not change. */
function cached(key: string, parse: () => Rendered): Rendered {
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const rendered = parse()
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? '')
  cache.set(key, rendered)
  return rendered
}

function plain(text: string, error: unknown): Rendered {
  if (error instanceof PlainFallback) return { kind: 'plain', text, reason: error.reason }
  return { kind: 'plain', text, reason: 'unsupported' }
}

/**
 * {@link renderBlocks} without the cache: every call parses (the bench times this). Linear in the
 * text past markdown-it's own parse (docs/performance.md, "Parsing hostile Markdown").
 */
export function parseBlocks(text: string): Rendered {
  try {
    const env: Record<string, unknown> = {}
    const blocks = buildBlocks(md.parse(text, env))
    if (droppedText(text, keptBlocks(blocks, referencesText(env)))) return { kind: 'plain', text, reason: 'dropped' }
    return { kind: 'blocks', blocks }
  } catch (error) {
    return plain(text, error)
  }
}

/** {@link renderInline} without the cache: every call parses (the bench times this). */
export function parseInlineField(text: string): Rendered {
  try {
    const children: InlineNode[] = []
    text.split('\n').forEach((line, index) => {
      if (index > 0) children.push({ type: 'text', text: '\n' })
      const [inline] = md.parseInline(line, {})
      for (const node of buildInline(inline?.children ?? [])) children.push(node) // no spread: a line can hold 100,000 nodes
    })
    if (droppedText(text, keptInline(children))) return { kind: 'plain', text, reason: 'dropped' }
    return { kind: 'inline', children: mergeText(children) }
  } catch (error) {
    return plain(text, error)
  }
}

/**
 * `detail` as block Markdown: paragraphs, lists, headings, tables, fenced code, blockquotes, rules.
 * Falls back to `plain` (the source, shown monospace) when the tree is too deep, text was dropped, or
 * a token is not on the allow-list. Cached per text.
 */
export function renderBlocks(text: string): Rendered {
  return cached(`b\u0000${text}`, () => parseBlocks(text))
}

/**
 * Question text and option descriptions as inline Markdown only (code spans, emphasis, strong,
 * strikethrough, links), parsed line by line so that line breaks, leading indentation and line-start
 * `#`, `1.` or `*` stay exactly as written (one `parseInline` over the whole text would strip
 * continuation indents and turn two trailing spaces into a break). Falls back like {@link renderBlocks}.
 * Cached per text.
 */
export function renderInline(text: string): Rendered {
  return cached(`i\u0000${text}`, () => parseInlineField(text))
}

/** Adjacent text nodes joined (fewer elements to render). */
function mergeText(nodes: InlineNode[]): InlineNode[] {
  const out: InlineNode[] = []
  for (const node of nodes) {
    const last = out[out.length - 1]
    if (node.type === 'text' && last?.type === 'text')
      out[out.length - 1] = { type: 'text', text: last.text + node.text }
    else out.push(node)
  }
  return out
}

/**
 * The plain text of a field's inline Markdown, for notifications and the tray (no syntax, no markup):
 * the same parse as the window's ({@link renderInline}, cache included).
 */
export function inlinePlainText(text: string): string {
  const rendered = renderInline(text)
  return rendered.kind === 'inline' ? plainInline(rendered.children) : text
}
