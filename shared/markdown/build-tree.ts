import type { Token } from 'markdown-it'
import { MAX_DEPTH, type BlockNode, type CellAlign, type InlineNode, type PlainReason, type TableCell } from './tree'
import { linkHost, safeLinkUrl } from './url-gate'

/** Thrown while building when the field must be shown as plain text instead. */
export class PlainFallback extends Error {
  constructor(readonly reason: PlainReason) {
    super(`markdown falls back to plain text: ${reason}`)
  }
}

const ALIGN: Record<string, CellAlign> = {
  'text-align:left': 'left',
  'text-align:center': 'center',
  'text-align:right': 'right',
}
const INLINE_CONTAINERS: Record<string, 'em' | 'strong' | 's'> = { em_open: 'em', strong_open: 'strong', s_open: 's' }

function enter(depth: number): number {
  if (depth + 1 > MAX_DEPTH) throw new PlainFallback('depth')
  return depth + 1
}

/**
 * Inline tokens → inline nodes, over the allow-list: text, code spans, emphasis, strong,
 * strikethrough, links (re-checked by the URL gate), images (as alt text and host), breaks. Another
 * token renders as its source text (`content`, else `markup`). Throws {@link PlainFallback} past
 * {@link MAX_DEPTH}.
 */
export function buildInline(tokens: readonly Token[], depth = 0): InlineNode[] {
  const out: InlineNode[] = []
  let i = 0
  /** The children up to the close token of the open token at `i - 1`. */
  const until = (close: string, level: number): InlineNode[] => {
    const start = i
    let nesting = 1
    while (i < tokens.length) {
      const token = tokens[i]!
      if (token.type === close.replace('_close', '_open')) nesting++
      if (token.type === close && --nesting === 0) break
      i++
    }
    const children = buildInline(tokens.slice(start, i), level)
    i++ // the close token
    return children
  }
  while (i < tokens.length) {
    const token = tokens[i++]!
    const container = INLINE_CONTAINERS[token.type]
    if (container !== undefined) {
      out.push({ type: container, children: until(token.type.replace('_open', '_close'), enter(depth)) })
    } else if (token.type === 'link_open') {
      const href = safeLinkUrl(String(token.attrGet('href') ?? ''))
      const children = until('link_close', enter(depth))
      if (href === undefined)
        for (const child of children) out.push(child) // no spread: there can be 100,000
      else out.push({ type: 'link', href, children })
    } else if (token.type === 'image') {
      const src = safeLinkUrl(String(token.attrGet('src') ?? ''))
      const alt = plainInline(buildInline(token.children ?? [], enter(depth)))
      out.push({ type: 'image', alt, host: src === undefined ? '' : linkHost(src), url: src ?? '' })
    } else if (token.type === 'text' || token.type === 'text_special') {
      out.push({ type: 'text', text: token.content })
    } else if (token.type === 'code_inline') {
      out.push({ type: 'code', text: token.content })
    } else if (token.type === 'softbreak' || token.type === 'hardbreak') {
      out.push({ type: 'break' })
    } else {
      out.push({ type: 'text', text: token.content || token.markup })
    }
  }
  return out
}

/** The plain text of inline nodes: what a person reads, without Markdown syntax. */
export function plainInline(nodes: readonly InlineNode[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
        case 'code':
          return node.text
        case 'break':
          return '\n'
        case 'image':
          return node.alt
        default:
          return plainInline(node.children)
      }
    })
    .join('')
}

/**
 * Block tokens (from `md.parse`) → block nodes, over the allow-list: paragraphs, headings, lists,
 * blockquotes, fenced and indented code, rules, tables. Any other block token makes the whole field
 * plain ({@link PlainFallback} `unsupported`), as does nesting past {@link MAX_DEPTH} (`depth`).
 */
export function buildBlocks(tokens: readonly Token[]): BlockNode[] {
  let i = 0
  const expect = (type: string): Token => {
    const token = tokens[i++]
    if (token?.type !== type) throw new PlainFallback('unsupported')
    return token
  }
  const inlineOf = (depth: number): InlineNode[] => buildInline(expect('inline').children ?? [], depth)
  const cells = (close: string, depth: number): TableCell[] => {
    const row: TableCell[] = []
    expect('tr_open')
    while (tokens[i]?.type === 'th_open' || tokens[i]?.type === 'td_open') {
      const open = tokens[i++]!
      row.push({ align: ALIGN[String(open.attrGet('style') ?? '')], children: inlineOf(depth) })
      i++ // th_close / td_close
    }
    expect('tr_close')
    if (tokens[i]?.type === close) return row
    return row
  }
  const blocks = (close: string | undefined, depth: number): BlockNode[] => {
    const out: BlockNode[] = []
    while (i < tokens.length && tokens[i]!.type !== close) out.push(block(depth))
    if (close !== undefined) expect(close)
    return out
  }
  const block = (depth: number): BlockNode => {
    const token = tokens[i++]!
    const inner = enter(depth)
    switch (token.type) {
      case 'paragraph_open': {
        const children = inlineOf(inner)
        expect('paragraph_close')
        return { type: 'paragraph', tight: token.hidden, children }
      }
      case 'heading_open': {
        const children = inlineOf(inner)
        expect('heading_close')
        return { type: 'heading', level: Number(token.tag.slice(1)) || 1, children }
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const ordered = token.type === 'ordered_list_open'
        const items: BlockNode[][] = []
        while (tokens[i]?.type === 'list_item_open') {
          i++
          items.push(blocks('list_item_close', enter(inner)))
        }
        expect(ordered ? 'ordered_list_close' : 'bullet_list_close')
        return { type: 'list', ordered, start: Number(token.attrGet('start') ?? 1), items }
      }
      case 'blockquote_open':
        return { type: 'quote', children: blocks('blockquote_close', inner) }
      case 'fence':
      case 'code_block':
        return { type: 'code-block', text: token.content, info: token.info.trim() }
      case 'hr':
        return { type: 'rule' }
      case 'table_open': {
        expect('thead_open')
        const head = cells('thead_close', inner)
        expect('thead_close')
        const rows: TableCell[][] = []
        if (tokens[i]?.type === 'tbody_open') {
          i++
          while (tokens[i]?.type === 'tr_open') rows.push(cells('tbody_close', inner))
          expect('tbody_close')
        }
        expect('table_close')
        return { type: 'table', head, rows }
      }
      default:
        throw new PlainFallback('unsupported')
    }
  }
  return blocks(undefined, 0)
}
