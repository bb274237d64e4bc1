import { join } from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// Parsing is linear in the input: eslint-plugin-regexp's super-linear rules are errors over the whole
// tree (eslint.config.mjs). These cases prove the rules bite in every folder, with the project's own
// config, and that the code that reads agent text passes them.
const root = join(import.meta.dirname, '..', '..', '..', '..')
let eslint: ESLint

beforeAll(async () => {
  eslint = new ESLint({ cwd: root })
  await eslint.lintText('export {}\n', { filePath: join(root, 'shared/x.ts') }) // loads the parsers and plugins once, here
})

const RULES = [
  'regexp/no-super-linear-backtracking',
  'regexp/no-super-linear-move',
  'regexp/no-misleading-capturing-group',
]

async function regexpErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) })
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('regexp/') && m.severity === 2)
    .map((m) => m.ruleId ?? '')
}

describe('the super-linear regex rules', () => {
  const FILES = [
    'shared/x.ts',
    'core/x.ts',
    'renderer/src/x.ts',
    'electron/main/x.ts',
    'cli/x.ts',
    'agent/x.ts',
    'scripts/x.mjs',
    'bench/x.ts',
    'test/unit/x.test.ts',
  ]

  it.each(FILES)('are errors in %s', async (file) => {
    // The list-number scan that froze the page: its prefix crossed line ends (many blank lines: quadratic).
    expect(await regexpErrors(file, 'export const x = /^([\\s>*+-]*)\\d{1,9}[.)]/gm\n')).toEqual([
      'regexp/no-super-linear-move',
    ])
    expect(await regexpErrors(file, 'export const x = /^(?:a+)+b$/\n')).toContain('regexp/no-super-linear-backtracking')
  })

  it('are errors in Svelte components too', async () => {
    const code = '<script lang="ts">\n  export const x = /\\s*x$/\n</script>\n'
    expect(await regexpErrors('renderer/src/X.svelte', code)).toEqual(['regexp/no-super-linear-move'])
  })

  it('report the uncertain cases and a capturing group that backtracks', async () => {
    const config = (await eslint.calculateConfigForFile(join(root, 'shared/x.ts'))) as {
      rules: Record<string, unknown>
    }
    expect(RULES.map((rule) => config.rules[rule])).toEqual([
      [2, { report: 'potential' }],
      [2, { report: 'potential', ignoreSticky: false, ignorePartial: false }],
      [2, { reportBacktrackingEnds: true }],
    ])
  })

  it('pass over the code that reads agent text (Markdown, notifications, askpass titles, labels)', async () => {
    const results = await eslint.lintFiles([
      'shared/markdown',
      'shared/recommended.ts',
      'electron/main/notification-text.ts',
      'shared/notification-text.ts',
      'cli/askpass/parent-command.ts',
    ])
    const hits = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId?.startsWith('regexp/')).map((m) => `${r.filePath}:${m.line} ${m.ruleId}`),
    )
    expect(results.length).toBeGreaterThanOrEqual(8)
    expect(hits).toEqual([])
  })
})
