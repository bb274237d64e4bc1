// Hostile Markdown: the shapes an agent could send to make a parser work super-linearly, each filled
// to a given length (the protocol's cap for a `detail` is 200,000 characters). Used by the bench's
// markdown section and by the parser's unit tests (test/unit/shared/markdown/linear.test.ts).

/** One hostile shape: a name for the table and the text at `chars` characters. */
export interface HostileShape {
  name: string
  text: (chars: number) => string
}

/** `unit` repeated and cut to exactly `chars` characters. */
const repeat =
  (unit: string) =>
  (chars: number): string =>
    unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars)

/** Lines from `line(i)`, i = 1, 2, …, joined and cut to exactly `chars` characters. */
const lines =
  (line: (i: number) => string) =>
  (chars: number): string => {
    const parts: string[] = []
    let length = 0
    for (let i = 1; length < chars; i++) {
      const next = `${line(i)}\n`
      parts.push(next)
      length += next.length
    }
    return parts.join('').slice(0, chars)
  }

/**
 * The shapes: blank lines (the one that froze the page), nested quotes, list markers, backticks,
 * `*`/`_` runs, brackets and digits. Each is one pathological case of a rule (a line-start scan, a
 * nesting level, a delimiter run, an unclosed opener).
 */
export const HOSTILE_SHAPES: readonly HostileShape[] = [
  { name: 'blank lines', text: repeat('\n') },
  { name: 'blank lines of spaces', text: repeat('  \n') },
  { name: 'nested quotes, one line', text: repeat('>') },
  { name: 'nested quotes, every line', text: lines(() => `${'> '.repeat(12)}quote`) },
  { name: 'list markers, one line', text: repeat('- ') },
  { name: 'list markers, every line', text: repeat('-\n') },
  { name: 'ordered markers, every line', text: lines((i) => `${' '.repeat(i % 4)}${i % 1e9}.`) },
  { name: 'nested list lines', text: lines((i) => `${'  '.repeat(i % 12)}- item`) },
  { name: 'backticks, one run', text: repeat('`') },
  { name: 'backticks, unclosed runs', text: lines((i) => `${'`'.repeat(i % 64)}a`) },
  { name: 'backtick pairs', text: repeat('`a``b') },
  { name: '*_ runs', text: repeat('*_') },
  { name: '* emphasis', text: repeat('*a') },
  { name: '_ openers', text: repeat('_a ') },
  { name: 'brackets', text: repeat('[') },
  { name: 'unclosed links', text: repeat('[a](') },
  { name: 'escapes', text: repeat('\\*') },
  { name: 'digits', text: repeat('1') },
]
