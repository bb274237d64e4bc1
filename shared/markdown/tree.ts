/**
 * What agent Markdown becomes: a small tree over an allow-list, which the window renders element by
 * element (no HTML strings anywhere). Links hold only URLs the gate accepted; an image is a chip with
 * its alt text and host, never an element that loads.
 */

/** Inline content: question text, option descriptions, and the runs inside `detail`'s blocks. */
export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'em' | 'strong' | 's'; children: InlineNode[] }
  | { type: 'link'; href: string; children: InlineNode[] }
  /** Never loaded: shown as a chip with its alt text and host; `url` is text (a tooltip), not a source. */
  | { type: 'image'; alt: string; host: string; url: string }
  | { type: 'break' }

/** Column alignment of a table cell, from the delimiter row. */
export type CellAlign = 'left' | 'center' | 'right' | undefined

/** One table cell. */
export interface TableCell {
  align: CellAlign
  children: InlineNode[]
}

/** Block content of `detail`. `tight` paragraphs (in tight lists) render without paragraph spacing. */
export type BlockNode =
  | { type: 'paragraph'; tight: boolean; children: InlineNode[] }
  | { type: 'heading'; level: number; children: InlineNode[] }
  | { type: 'list'; ordered: boolean; start: number; items: BlockNode[][] }
  | { type: 'quote'; children: BlockNode[] }
  /** `info` is the fence's info string (`ts`, `sh`...), shown as a label; empty for indented code. */
  | { type: 'code-block'; text: string; info: string }
  | { type: 'rule' }
  | { type: 'table'; head: TableCell[]; rows: TableCell[][] }

/** Why a field is shown as plain monospace text instead. */
export type PlainReason = 'depth' | 'dropped' | 'unsupported'

/**
 * One agent field, parsed once: block Markdown (`detail`), inline Markdown (question text, option
 * descriptions), or the source as plain text when the tree would be too deep, the parser dropped
 * text, or a token is not on the allow-list. Text is never lost.
 */
export type Rendered =
  | { kind: 'blocks'; blocks: BlockNode[] }
  | { kind: 'inline'; children: InlineNode[] }
  | { kind: 'plain'; text: string; reason: PlainReason }

/** The deepest the tree may nest (blocks and inline together) before a field falls back to plain text. */
export const MAX_DEPTH = 16
