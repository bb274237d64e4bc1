import { getContext, setContext } from 'svelte'
import { renderBlocks, renderInline } from '../../../shared/markdown/parse'
import type { Rendered } from '../../../shared/markdown/tree'

/**
 * Parsed Markdown kept per ask: every field of an ask is parsed the first time its card shows it, and
 * the result is kept until the ask leaves the inbox (`releaseMarkdown`), so moving back and forth
 * between asks never parses again, however many asks there are. Text with no owning ask (history)
 * goes through the parser's own bounded cache.
 */
const byAsk = new Map<string, Map<string, Rendered>>()
const OWNER = Symbol('markdown-owner')

export type MarkdownMode = 'block' | 'inline'

const parse = (text: string, mode: MarkdownMode): Rendered =>
  mode === 'block' ? renderBlocks(text) : renderInline(text)

/** The rendered tree of `text`, kept under `askId` when given. */
export function renderMarkdown(text: string, mode: MarkdownMode, askId?: string): Rendered {
  if (askId === undefined) return parse(text, mode)
  let fields = byAsk.get(askId)
  if (!fields) byAsk.set(askId, (fields = new Map()))
  const key = `${mode}\u0000${text}`
  let rendered = fields.get(key)
  if (rendered === undefined) fields.set(key, (rendered = parse(text, mode)))
  return rendered
}

/** Forgets what was kept for an ask (it is no longer on screen). */
export function releaseMarkdown(askId: string): void {
  byAsk.delete(askId)
}

/** How many asks have parsed Markdown kept (for tests). */
export function keptMarkdownAsks(): number {
  return byAsk.size
}

/** Called by a card while it initializes: Markdown rendered inside it is kept under its ask. */
export function provideMarkdownOwner(askId: () => string): void {
  setContext(OWNER, askId)
}

/** The ask whose card this component is in, if any (called during component init). */
export function markdownOwner(): (() => string) | undefined {
  return getContext<(() => string) | undefined>(OWNER)
}
