// `npm test`'s checks and the typecheck's layers run side by side (scripts/run-at-once.mjs): at most the
// limit at once, each one's output whole, reported in the order given however they finish.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { runAtOnce, type StepResult } from '../../../scripts/run-at-once.mjs'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ask-user-run-at-once-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A step running `source` in Node (in the test's folder). */
const node = (title: string, source: string) => ({ title, command: process.execPath, args: ['-e', source], cwd: dir })

/** Node source that waits (bounded) until `file` exists, then prints `said`. */
const waitFor = (file: string, said: string) => `
  const { existsSync } = require('node:fs')
  const deadline = Date.now() + 30000
  const check = () => existsSync(${JSON.stringify(file)}) ? console.log(${JSON.stringify(said)})
    : Date.now() > deadline ? (console.error('never saw ${file}'), process.exit(3)) : setTimeout(check, 20)
  check()`

it('runs two at once, and reports in the order given although the second finished first', async () => {
  const reported: StepResult[] = []
  const results = await runAtOnce(
    [
      node('first', waitFor('second-ran', 'first done')),
      node('second', `require('node:fs').writeFileSync('second-ran', ''); console.log('second done')`),
    ],
    (result) => reported.push(result),
    2,
  )
  expect(reported.map((result) => result.title)).toEqual(['first', 'second'])
  expect(results).toEqual([
    { title: 'first', ok: true, output: 'first done\n' },
    { title: 'second', ok: true, output: 'second done\n' },
  ])
})

it('with a limit of one, a step starts only after the one before it has ended', async () => {
  const results = await runAtOnce(
    [
      node('writer', `require('node:fs').writeFileSync('written', '')`),
      node('reader', `process.exit(require('node:fs').existsSync('written') ? 0 : 4)`),
    ],
    () => undefined,
    1,
  )
  expect(results.map((result) => result.ok)).toEqual([true, true])
})

it('a failing step is not ok and keeps its output, stdout and stderr; the others still run', async () => {
  const results = await runAtOnce(
    [
      node('fails', `console.log('to stdout'); console.error('type error here'); process.exit(2)`),
      node('passes', `console.log('fine')`),
      { title: 'missing', command: join(dir, 'no-such-program'), args: [], cwd: dir },
    ],
    () => undefined,
  )
  expect(results[0]).toMatchObject({ title: 'fails', ok: false })
  expect(results[0]!.output).toContain('to stdout')
  expect(results[0]!.output).toContain('type error here')
  expect(results[1]).toEqual({ title: 'passes', ok: true, output: 'fine\n' })
  expect(results[2]).toMatchObject({ title: 'missing', ok: false })
  expect(results[2]!.output).toContain('ENOENT')
})
