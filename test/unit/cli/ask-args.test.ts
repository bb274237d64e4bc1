import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AskAbortedError } from '../../../agent/errors'
import { exitCodeFor } from '../../../cli/commands/exit-codes'
import { main } from '../../../cli/main'
import { AskUserError } from '../../../shared/error-codes'
import { memoryIo } from './memory-io'

let home: string
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-args-'))
})
afterAll(() => rm(home, { recursive: true, force: true }))

async function refused(args: string[], stdin = ''): Promise<string> {
  const io = memoryIo({ ASK_USER_HOME: home }, stdin)
  expect(await main(['ask', ...args], io)).toBe(2)
  expect(io.out()).toBe('')
  return io.err()
}

describe('ask-user ask: input checks (exit 2, nothing on stdout)', () => {
  it.each([
    [[], 'Error: --question (or --json) is required; run `ask-user ask --help`\n'],
    [
      ['--question', 'Q', '--timeout', '0'],
      'Error: --timeout must be a positive number of seconds, at most 2147483, got "0"\n',
    ],
    [
      ['--question', 'Q', '--timeout', 'soon'],
      'Error: --timeout must be a positive number of seconds, at most 2147483, got "soon"\n',
    ],
    // a Node timer cannot wait longer (it would fire at once): refused, never a silent instant timeout
    [
      ['--question', 'Q', '--timeout', '3000000'],
      'Error: --timeout must be a positive number of seconds, at most 2147483, got "3000000"\n',
    ],
    [['--json', '-', '--question', 'Q'], 'Error: --json cannot be combined with --question\n'],
    [['--question', 'Q', 'stray'], 'Error: unexpected argument "stray"; run `ask-user ask --help`\n'],
    [['--bogus'], "Error: unknown option '--bogus'; run `ask-user ask --help`\n"],
    [['--questoin', 'Q'], "Error: unknown option '--questoin'; did you mean --question?\n"],
    [['--optoin=a'], "Error: unknown option '--optoin'; did you mean --option?\n"],
    [['--question'], "Error: option '--question <value>' argument missing; run `ask-user ask --help`\n"],
  ])('%j', async (args, message) => {
    expect(await refused(args)).toEqual(message)
  })

  it('refuses an empty question and a label given twice, before it looks for a companion (none runs here)', async () => {
    expect(await refused(['--question', ''])).toBe(
      'Error: --question is empty; write the question the person should answer\n',
    )
    expect(await refused(['--question', '  \n'])).toBe(
      'Error: --question is empty; write the question the person should answer\n',
    )
    expect(await refused(['--question', 'Q', '--option', 'a', '--option', 'b', '--option', 'a'])).toBe(
      'Error: --option "a" is given twice; give each option its own label (the answer names the label picked)\n',
    )
    expect(await refused(['--json', '-'], '{"questions":[{"id":"a","question":"Q"},{"id":"b","question":""}]}')).toBe(
      'Error: questions[1].question is empty; write the question the person should answer\n',
    )
    const twice = '{"questions":[{"id":"a","question":"Q","options":[{"label":"x"},{"label":"x","description":"d"}]}]}'
    expect(await refused(['--json', '-'], twice)).toBe(
      'Error: questions[0].options label "x" is given twice; give each option its own label (the answer names the label picked)\n',
    )
  })

  it('warns on stderr for each --json field it drops, then goes on to ask', async () => {
    const io = memoryIo(
      { ASK_USER_HOME: home },
      '{"questions":[{"id":"a","question":"Q","detail":"# Plan","intent":{"kind":"x"}}]}',
    )
    expect(await main(['ask', '--json', '-'], io)).toBe(4)
    expect(io.out()).toBe('')
    expect(io.err()).toMatch(
      new RegExp(
        "^Warning: --json takes the tool's arguments, which have no questions\\[0\\]\\.detail, questions\\[0\\]\\.intent: " +
          'dropped; to show detail, ask one question with --question and --detail\nError: no Ask User Companion is running',
      ),
    )
  })

  it('refuses bad JSON from stdin or a file, and bad tool arguments with upstream wording', async () => {
    expect(await refused(['--json', '-'], '{nope')).toMatch(/^Error: stdin is not valid JSON: /)
    expect(await refused(['--json', '-'], '{"questions":[{"id":"a"}]}')).toBe(
      'Error: invalid arguments: missing required property "questions[0].question"\n',
    )
    expect(await refused(['--json', '-'], '{"questions":[]}')).toBe(
      'Error: ask_user_question needs at least one question; "questions" was empty\n',
    )
    const file = join(home, 'args.json')
    await writeFile(file, '{"questions":"x"}')
    expect(await refused(['--json', file])).toBe('Error: invalid arguments: "questions" must be an array\n')
    expect(await refused(['--json', join(home, 'missing.json')])).toMatch(/^Error: cannot read .*missing\.json: ENOENT/)
  })

  it('exits 4 with how to start the companion when none is running', async () => {
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['ask', '--question', 'Q'], io)).toBe(4)
    expect(io.out()).toBe('')
    expect(io.err()).toBe(
      `Error: no Ask User Companion is running (no endpoint.json in ${home}); start the Ask User Companion app, or run \`ask-user serve\`\n`,
    )
  })

  it('prints its help with exit 0', async () => {
    const io = memoryIo()
    expect(await main(['ask', '--help'], io)).toBe(0)
    expect(io.out()).toMatch(/^Usage: ask-user ask --json FILE\|-/)
    expect(io.out()).toContain('124 timed out, 130 interrupted')
  })
})

describe('exit codes', () => {
  it.each([
    [new AskUserError('INVALID_ARGS', 'x'), 2],
    [new AskUserError('EMPTY_QUESTIONS', 'x'), 2],
    [new AskUserError('LIMIT_EXCEEDED', 'x'), 2],
    [new AskUserError('ASK_CANCELLED', 'x'), 3],
    [new AskUserError('NO_PROVIDER', 'x'), 4],
    [new AskAbortedError('connection-lost', 'x'), 4],
    [new AskAbortedError('timeout', 'x'), 124],
    [new AskAbortedError('signal', 'x'), 130],
    [new AskAbortedError('closed', 'x'), 130],
    [new AskUserError('INVALID_ANSWER', 'x'), 1],
    [new Error('x'), 1],
  ])('%s → %i', (error, code) => {
    expect(exitCodeFor(error)).toBe(code)
  })
})
