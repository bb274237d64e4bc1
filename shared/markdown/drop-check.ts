import type { BlockNode, InlineNode } from './tree'

/**
 * The drop check: markdown-it drops content past `maxNesting` without a word, and a parser bug could
 * lose text too; comparing how many letters and digits the source and the tree hold catches both.
 * Every scan here is one pass over its input (no regex may rescan a line or a run: agent text is
 * hostile, up to 200,000 characters; docs/performance.md).
 */

/** Runs of characters that are neither letters nor digits (no Markdown syntax consumes those). */
const NOT_WORD_CHARS = /[^\p{L}\p{N}]+/gu
/**
 * The letters and digits of the source that are syntax, found in one pass: the number of an ordered
 * list marker at a line start (inside quotes and lists too; group 1), or an entity reference. The
 * marker's prefix never crosses a line end (with `\s` it did: every line start of a run of blank lines
 * then scanned the whole run, quadratic in the input), so each line start scans its own line at most.
 */
const SYNTAX_WORDS =
  /^(?:[>*+-]|[^\S\n\r\u2028\u2029])*(\d{1,9})[.)]|&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/gm

/**
 * How many letters and digits `text` holds, in UTF-16 code units (an astral letter counts two on
 * both sides of the comparison alike). One string is built, not an array of every match.
 */
const countWordChars = (text: string): number => text.replace(NOT_WORD_CHARS, '').length

/**
 * True when the tree lost text the source had: fewer letters and digits in `kept` (the tree's text,
 * code, link targets, image alt and URL) than in `source`, not counting those inside entity
 * references or ordered-list numbers. Linear in both inputs.
 */
export function droppedText(source: string, kept: string): boolean {
  let syntax = 0
  for (const [match, listNumber] of source.matchAll(SYNTAX_WORDS))
    syntax += listNumber === undefined ? countWordChars(match) : listNumber.length
  return countWordChars(kept) < countWordChars(source) - syntax
}

/** Every character of inline nodes a drop check counts: text plus link targets and image URLs. */
export function keptInline(nodes: readonly InlineNode[]): string {
  const parts: string[] = []
  const walk = (list: readonly InlineNode[]): void => {
    for (const node of list) {
      if (node.type === 'image') parts.push(node.alt, node.url)
      else if (node.type === 'link') {
        parts.push(node.href)
        walk(node.children)
      } else if ('children' in node) walk(node.children)
      else if ('text' in node) parts.push(node.text)
    }
  }
  walk(nodes)
  return parts.join(' ')
}

/** Every character of blocks a drop check counts, plus the reference definitions the parser consumed. */
export function keptBlocks(blocks: readonly BlockNode[], references: string): string {
  const parts: string[] = [references]
  const walk = (nodes: readonly BlockNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'paragraph' || node.type === 'heading') parts.push(keptInline(node.children))
      else if (node.type === 'list') node.items.forEach(walk)
      else if (node.type === 'quote') walk(node.children)
      else if (node.type === 'code-block') parts.push(node.info, node.text)
      else if (node.type === 'table')
        for (const row of [node.head, ...node.rows]) for (const cell of row) parts.push(keptInline(cell.children))
    }
  }
  walk(blocks)
  return parts.join(' ')
}

/** The env's reference definitions as text (they are consumed by the parser, not lost). */
export function referencesText(env: Record<string, unknown>): string {
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
