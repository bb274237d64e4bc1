// 7. Parsing hostile Markdown, in plain Node: the shared parser (shared/markdown/parse.ts, the window's
// and the notifications' code, cache bypassed) against markdown-it alone with the same options, on
// every shape of bench/markdown-shapes.ts at the protocol's 200,000-character cap. Block mode is a
// `detail` (our parseBlocks against `md.parse`); inline mode is question text (our parseInlineField
// against `md.parseInline` line by line, which is how it parses). Ours includes markdown-it's parse,
// so the ratio is the cost of our tree, drop check and fallbacks on top of it. Each sample times the
// two back to back, in alternating order (a parse of a few ms repeated to fill the sample); figures
// are medians. The shapes are also timed at a quarter of the size, for the growth of each.
import { performance } from 'node:perf_hooks'
import MarkdownIt from 'markdown-it'
import { MARKDOWN_IT_OPTIONS, parseBlocks, parseInlineField } from '../shared/markdown/parse'
import { HOSTILE_SHAPES } from './markdown-shapes'
import { median } from './stats'

export type MarkdownMode = 'block' | 'inline'

/** One shape in one mode. */
export interface ShapeResult {
  shape: string
  mode: MarkdownMode
  chars: number
  /** Median ms of ours and of markdown-it alone at `chars`. */
  oursMs: number
  markdownItMs: number
  ratio: number
  /** Median ms of ours and of markdown-it at a quarter of `chars` (the growth from there to `chars`). */
  oursQuarterMs: number
  markdownItQuarterMs: number
  /** What ours made of it: blocks, inline, or plain (with the reason). */
  outcome: string
}

export interface MarkdownResult {
  chars: number
  samples: number
  shapes: ShapeResult[]
}

const md = new MarkdownIt('default', MARKDOWN_IT_OPTIONS)

const baseline: Record<MarkdownMode, (text: string) => void> = {
  block: (text) => void md.parse(text, {}),
  inline: (text) => {
    for (const line of text.split('\n')) md.parseInline(line, {})
  },
}
const ours = { block: parseBlocks, inline: parseInlineField }

/** Shortest a sample may be: a parse of a few ms is repeated up to this, so a GC pause averages out. */
const MIN_SAMPLE_MS = 25

/** Mean ms of one call of `run` over `reps` calls in a row. */
function timeOnce(run: () => unknown, reps = 1): number {
  const t0 = performance.now()
  for (let i = 0; i < reps; i++) run()
  return (performance.now() - t0) / reps
}

/** Medians of ours and markdown-it over `samples` alternating pairs, after a warm-up pair. */
function compare(text: string, mode: MarkdownMode, samples: number): { ours: number; markdownIt: number } {
  const oursMs: number[] = []
  const baseMs: number[] = []
  const runOurs = (): unknown => ours[mode](text)
  const runBase = (): unknown => baseline[mode](text)
  timeOnce(runOurs) // warm-up, not counted
  const reps = Math.min(50, Math.max(1, Math.ceil(MIN_SAMPLE_MS / timeOnce(runBase))))
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      oursMs.push(timeOnce(runOurs, reps))
      baseMs.push(timeOnce(runBase, reps))
    } else {
      baseMs.push(timeOnce(runBase, reps))
      oursMs.push(timeOnce(runOurs, reps))
    }
  }
  return { ours: median(oursMs), markdownIt: median(baseMs) }
}

/** Every hostile shape in both modes at `chars` characters (and ours at a quarter of that). */
export function runMarkdown(opts: { chars: number; samples: number }): MarkdownResult {
  // Every path compiled before anything is timed (a shape's first parse also compiles the code the
  // next shapes share: timed cold, the first shapes' figures were up to 4× their warm ones).
  for (const shape of HOSTILE_SHAPES)
    for (const mode of ['block', 'inline'] as const) compare(shape.text(opts.chars), mode, 1)
  const shapes: ShapeResult[] = []
  for (const shape of HOSTILE_SHAPES) {
    for (const mode of ['block', 'inline'] as const) {
      const text = shape.text(opts.chars)
      const { ours: oursMs, markdownIt: markdownItMs } = compare(text, mode, opts.samples)
      const quarter = shape.text(Math.floor(opts.chars / 4))
      const { ours: oursQuarterMs, markdownIt: markdownItQuarterMs } = compare(quarter, mode, opts.samples)
      const rendered = ours[mode](text)
      const outcome = rendered.kind === 'plain' ? `plain (${rendered.reason})` : rendered.kind
      shapes.push({
        shape: shape.name,
        mode,
        chars: text.length,
        oursMs,
        markdownItMs,
        ratio: oursMs / markdownItMs,
        oursQuarterMs,
        markdownItQuarterMs,
        outcome,
      })
    }
  }
  return { chars: opts.chars, samples: opts.samples, shapes }
}
