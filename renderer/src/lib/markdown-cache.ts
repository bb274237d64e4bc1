import { getContext, setContext } from 'svelte'
import type { Ask } from '../../../shared/ask'
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

const parse = (text: string, mode: MarkdownMode): Rendered => (mode === 'block' ? renderBlocks(text) : renderInline(text))

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

/**
 * Parses, ahead of time, every Markdown field the ask's card will show (question text and option
 * descriptions inline, `detail` and an approval's plan as blocks), and keeps them under the ask: the
 * card then renders without parsing. Cheap to repeat (a kept ask is only looked up).
 */
export function warmMarkdown(ask: Ask): void {
  if (byAsk.has(ask.askId)) return
  for (const question of ask.questions) {
    renderMarkdown(question.question, 'inline', ask.askId)
    if (question.detail !== undefined && question.detail !== '') renderMarkdown(question.detail, 'block', ask.askId)
    for (const option of question.options ?? []) if (option.description) renderMarkdown(option.description, 'inline', ask.askId)
  }
  if (ask.approval?.action.kind === 'plan') renderMarkdown(ask.approval.action.plan, 'block', ask.askId)
}

/** Forgets what was kept for an ask (it is no longer on screen). */
export function releaseMarkdown(askId: string): void {
  byAsk.delete(askId)
}

/** How many asks have parsed Markdown kept (for tests). */
export function keptMarkdownAsks(): number {
  return byAsk.size
}

/** How many fields of an ask have their parsed Markdown kept (for tests). */
export function keptMarkdownFields(askId: string): number {
  return byAsk.get(askId)?.size ?? 0
}

/** Called by a card while it initializes: Markdown rendered inside it is kept under its ask. */
export function provideMarkdownOwner(askId: () => string): void {
  setContext(OWNER, askId)
}

/** The ask whose card this component is in, if any (called during component init). */
export function markdownOwner(): (() => string) | undefined {
  return getContext<(() => string) | undefined>(OWNER)
}
