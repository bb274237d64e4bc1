import { getContext, setContext } from 'svelte'
import type { renderBlocks, renderInline } from '../../../shared/markdown/parse'
import type { Rendered } from '../../../shared/markdown/tree'

/** The Markdown parser (shared/markdown/parse.ts): markdown-it and its tables, the largest part of a card. */
export interface MarkdownParser {
  renderBlocks: typeof renderBlocks
  renderInline: typeof renderInline
}

// The parser is handed in rather than imported: the window hands it in before its first paint, the
// phone loads it when a card first needs it (a dynamic import), so the list never waits for markdown-it.
let parser: MarkdownParser | undefined
let parserProvided!: () => void
const parserReady = new Promise<void>((resolve) => (parserProvided = resolve))

/** Makes `given` the parser every card uses from now on (call once, before or after mounting). */
export function useMarkdownParser(given: MarkdownParser): void {
  parser = given
  parserProvided()
}

/**
 * How the parser is loaded once a text first needs it (the phone: a dynamic import, so neither its list
 * nor plain asks ever fetch markdown-it); a load that fails is tried again by the next text. The window
 * hands its parser in at start instead and registers none.
 */
let loadWhenNeeded: (() => Promise<unknown>) | undefined

/** Registers `load` (it must end by calling {@link useMarkdownParser}) to run when a text first needs the parser. */
export function loadMarkdownWhenNeeded(load: () => Promise<unknown>): void {
  if (parser === undefined) loadWhenNeeded = load
}

// Inline text without any of these renders exactly as it is written: no emphasis, code, link, escape,
// entity, strikethrough or line break can start without one of them.
const INLINE_SYNTAX = /[\\`*_[\]<>&~|!\n]/

/**
 * Called by each Markdown text as it shows: loads the parser (once, through the registered loader) when
 * `text` needs it. Block text always does (paragraphs, lists); inline text only with Markdown syntax in it.
 */
export function needMarkdownFor(text: string, mode: MarkdownMode): void {
  if (parser !== undefined || loadWhenNeeded === undefined) return
  if (mode === 'inline' && !INLINE_SYNTAX.test(text)) return
  const load = loadWhenNeeded
  loadWhenNeeded = undefined
  load().catch(() => {
    if (parser === undefined) loadWhenNeeded = load
  })
}

/** Whether a parser was handed in yet (until then {@link renderMarkdown} returns `undefined`). */
export function markdownLoaded(): boolean {
  return parser !== undefined
}

/** Resolves once a parser is handed in. */
export function markdownReady(): Promise<void> {
  return parserReady
}

/**
 * Parsed Markdown kept per ask: every field of an ask is parsed the first time its card shows it, and
 * the result is kept until the ask leaves the inbox (`releaseMarkdown`), so moving back and forth
 * between asks never parses again, however many asks there are. Text with no owning ask (history)
 * goes through the parser's own bounded cache.
 */
const byAsk = new Map<string, Map<string, Rendered>>()
const OWNER = Symbol('markdown-owner')

export type MarkdownMode = 'block' | 'inline'

const parse = (given: MarkdownParser, text: string, mode: MarkdownMode): Rendered =>
  mode === 'block' ? given.renderBlocks(text) : given.renderInline(text)

/**
 * The rendered tree of `text`, kept under `askId` when given; `undefined` while no parser was handed in
 * ({@link useMarkdownParser}; nothing is kept then).
 */
export function renderMarkdown(text: string, mode: MarkdownMode, askId?: string): Rendered | undefined {
  if (parser === undefined) return undefined
  if (askId === undefined) return parse(parser, text, mode)
  let fields = byAsk.get(askId)
  if (!fields) byAsk.set(askId, (fields = new Map()))
  const key = `${mode}\u0000${text}`
  let rendered = fields.get(key)
  if (rendered === undefined) fields.set(key, (rendered = parse(parser, text, mode)))
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
