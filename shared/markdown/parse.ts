import MarkdownIt from 'markdown-it'
import { buildBlocks, buildInline, PlainFallback, plainInline } from './build-tree'
import type { BlockNode, InlineNode, Rendered } from './tree'
import { safeLinkUrl } from './url-gate'

/**
 * markdown-it as a parser only: no raw HTML, no linkify, no typographer, and our URL gate instead of
 * its `validateLink`, so a link or image with any other URL stays literal text. Its `maxNesting` is
 * above our own depth cap, so the tree builder sees (and refuses) any input deep enough to be cut.
 * `md.render` is never called.
 */
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, maxNesting: 40 })
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

/** Letters and digits, the characters no Markdown syntax consumes (entities aside). */
const WORD_CHAR = /[\p{L}\p{N}]/gu
const ENTITY = /&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g
/** An ordered list marker at a line start (inside quotes and lists too): its digits are syntax. */
const LIST_NUMBER = /^([\s>*+-]*)\d{1,9}[.)]/gm
const countWordChars = (text: string): number => text.match(WORD_CHAR)?.length ?? 0

/**
 * True when the tree lost text the source had: fewer letters and digits in the tree (text, code,
 * link targets, image alt and URL) than in the source, not counting those inside entity references
 * or ordered-list numbers.
 * markdown-it drops content past `maxNesting` without a word; this catches it, and anything like it.
 */
export function droppedText(source: string, kept: string): boolean {
  const words = source.replace(LIST_NUMBER, '$1')
  const inEntities = (words.match(ENTITY) ?? []).reduce((sum, entity) => sum + countWordChars(entity), 0)
  return countWordChars(kept) < countWordChars(words) - inEntities
}

/** Every character of the tree a drop check counts: text plus link targets and image hosts. */
function keptInline(nodes: readonly InlineNode[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'link') return `${node.href} ${keptInline(node.children)}`
      if (node.type === 'image') return `${node.alt} ${node.url}`
      if ('children' in node) return keptInline(node.children)
      return 'text' in node ? node.text : ''
    })
    .join(' ')
}

function keptBlocks(blocks: readonly BlockNode[], references: string): string {
  const parts: string[] = [references]
  const walk = (nodes: readonly BlockNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'paragraph' || node.type === 'heading') parts.push(keptInline(node.children))
      else if (node.type === 'list') node.items.forEach(walk)
      else if (node.type === 'quote') walk(node.children)
      else if (node.type === 'code-block') parts.push(node.info, node.text)
      else if (node.type === 'table') for (const row of [node.head, ...node.rows]) for (const cell of row) parts.push(keptInline(cell.children))
    }
  }
  walk(blocks)
  return parts.join(' ')
}

/** The env's reference definitions as text (they are consumed by the parser, not lost). */
function referencesText(env: Record<string, unknown>): string {
  const references = env['references']
  if (typeof references !== 'object' || references === null) return ''
  return Object.entries(references)
    .map(([label, value]: [string, unknown]) => {
      if (typeof value !== 'object' || value === null) return label
      const href = 'href' in value ? value.href : undefined
      const title = 'title' in value ? value.title : undefined
      return `${label} ${typeof href === 'string' ? href : ''} ${typeof title === 'string' ? title : ''}`
    })
    .join(' ')
}

function plain(text: string, error: unknown): Rendered {
  if (error instanceof PlainFallback) return { kind: 'plain', text, reason: error.reason }
  return { kind: 'plain', text, reason: 'unsupported' }
}

/**
 * `detail` as block Markdown: paragraphs, lists, headings, tables, fenced code, blockquotes, rules.
 * Falls back to `plain` (the source, shown monospace) when the tree is too deep, text was dropped, or
 * a token is not on the allow-list. Cached per text.
 */
export function renderBlocks(text: string): Rendered {
  return cached(`b\u0000${text}`, () => {
    try {
      const env: Record<string, unknown> = {}
      const blocks = buildBlocks(md.parse(text, env))
      if (droppedText(text, keptBlocks(blocks, referencesText(env)))) return { kind: 'plain', text, reason: 'dropped' }
      return { kind: 'blocks', blocks }
    } catch (error) {
      return plain(text, error)
    }
  })
}

/**
 * Question text and option descriptions as inline Markdown only (code spans, emphasis, strong,
 * strikethrough, links), parsed line by line so that line breaks, leading indentation and line-start
 * `#`, `1.` or `*` stay exactly as written (one `parseInline` over the whole text would strip
 * continuation indents and turn two trailing spaces into a break). Falls back like {@link renderBlocks}.
 */
export function renderInline(text: string): Rendered {
  return cached(`i\u0000${text}`, () => {
    try {
      const children: InlineNode[] = []
      text.split('\n').forEach((line, index) => {
        if (index > 0) children.push({ type: 'text', text: '\n' })
        const [inline] = md.parseInline(line, {})
        children.push(...buildInline(inline?.children ?? []))
      })
      if (droppedText(text, keptInline(children))) return { kind: 'plain', text, reason: 'dropped' }
      return { kind: 'inline', children: mergeText(children) }
    } catch (error) {
      return plain(text, error)
    }
  })
}

/** Adjacent text nodes joined (fewer elements to render). */
function mergeText(nodes: InlineNode[]): InlineNode[] {
  const out: InlineNode[] = []
  for (const node of nodes) {
    const last = out[out.length - 1]
    if (node.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + node.text }
    else out.push(node)
  }
  return out
}

/** The plain text of a field's inline Markdown, for notifications and the tray (no syntax, no markup). */
export function inlinePlainText(text: string): string {
  const rendered = renderInline(text)
  return rendered.kind === 'inline' ? plainInline(rendered.children) : text
}
