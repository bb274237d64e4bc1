// The bench's command line (`npm run bench -- …`), read with node:util's parseArgs as the CLI does.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

/** The sections of the bench, in the order they run. */
export const SECTIONS = [
  'roundtrip',
  'scale',
  'browser',
  'cli',
  'startup',
  'growth',
  'markdown',
  'claude-hooks',
  'relay',
  'push',
  'phone',
] as const
export type Section = (typeof SECTIONS)[number]

export const USAGE =
  'Usage: npm run bench -- [--quick] [--runs N] [--json [FILE]] [--only=roundtrip,scale,browser,cli,startup,growth,markdown,claude-hooks,relay,push,phone] [--cpu-prof=DIR] [--visible-asks=N] [--inbox-loads=N] [--no-history] [--no-build]'

export interface BenchArgs {
  quick: boolean
  /** Where to write everything measured as JSON; absent: only the table is printed. */
  json?: string
  only: Set<Section>
  cpuProf?: string
  visibleAsks?: number
  inboxLoads?: number
  /** How many times every section runs; figures are medians over the runs (bench/runs.ts). */
  runs: number
  /** The core runs with `settings.history` off: what the history costs per ask (docs/performance.md). */
  noHistory: boolean
  help: boolean
}

const wholeNumber = (option: string, text: string | undefined, least: number): number | undefined => {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isInteger(n) || n < least)
    throw new Error(`${option} needs a whole number (${least} or more), not ${JSON.stringify(text)}`)
  return n
}

/**
 * Reads the bench's arguments; throws on an unknown option or a bad number. `--json` takes an optional
 * FILE (relative to where npm was run); without one it writes bench-results/latest.json under `root`.
 */
export function parseBenchArgs(
  argv: readonly string[],
  root: string,
  cwd = process.env['INIT_CWD'] ?? process.cwd(),
): BenchArgs {
  // parseArgs has no optional values: a bare `--json` becomes `--json=` (the default file).
  const args = argv.map((a, i) =>
    a === '--json' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--')) ? '--json=' : a,
  )
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'visible-asks': { type: 'string' },
      'inbox-loads': { type: 'string' },
      runs: { type: 'string' },
      'no-history': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const only =
    values.only === undefined
      ? [...SECTIONS]
      : values.only.split(',').filter((s): s is Section => (SECTIONS as readonly string[]).includes(s))
  const visibleAsks = wholeNumber('--visible-asks', values['visible-asks'], 1)
  const inboxLoads = wholeNumber('--inbox-loads', values['inbox-loads'], 1)
  return {
    quick: values.quick,
    ...(values.json === undefined
      ? {}
      : { json: values.json === '' ? resolve(root, 'bench-results', 'latest.json') : resolve(cwd, values.json) }),
    only: new Set(only),
    ...(values['cpu-prof'] === undefined ? {} : { cpuProf: resolve(values['cpu-prof']) }),
    ...(visibleAsks === undefined ? {} : { visibleAsks }),
    ...(inboxLoads === undefined ? {} : { inboxLoads }),
    runs: wholeNumber('--runs', values.runs, 1) ?? 1,
    noHistory: values['no-history'],
    help: values.help,
  }
}
