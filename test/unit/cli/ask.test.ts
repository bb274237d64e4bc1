import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi, type UiClient } from '../../helpers/ui-client'
import { ensureBuilt, runCli } from './built-cli'

beforeAll(() => ensureBuilt(), 120_000)

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(): Promise<{ tc: TestCompanion; ui: UiClient; env: Record<string, string> }> {
  const tc = await startTestCompanion()
  cleanups.push(tc.cleanup)
  const ui = await connectUi(tc.companion)
  cleanups.push(() => ui.close())
  return { tc, ui, env: { ASK_USER_HOME: tc.home } }
}

describe('ask-user ask as a child process', () => {
  it('exit 0: stdout is exactly the canonical JSON and a newline', async () => {
    const { ui, env } = await setup()
    const run = runCli(
      [
        'ask',
        '--id',
        'pkg',
        '--header',
        'Tooling',
        '--question',
        'Which package manager?',
        '--option',
        'pnpm (Recommended)',
        '--option',
        'npm',
        '--title',
        'Set-up',
      ],
      env,
    )
    const ask = await ui.nextAsk()
    expect(ask.title).toBe('Set-up')
    expect(ask.agent.name).toBe('ask-user')
    expect(ask.agent.pid).toBe(run.child.pid)
    expect(ask.questions).toEqual([
      {
        id: 'pkg',
        question: 'Which package manager?',
        header: 'Tooling',
        options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }],
      },
    ])
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm (Recommended)'] }])
    expect(await run.done).toEqual({
      code: 0,
      signal: null,
      stdout: '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]}]}\n',
      stderr: '',
    })
  })

  it('exit 0 with --json - (several questions, multi-select with custom) and --multi defaulting the id to q1', async () => {
    const { ui, env } = await setup()
    const args = {
      questions: [
        {
          id: 'targets',
          question: 'What ships?',
          multi_select: true,
          options: [{ label: 'tests' }, { label: 'docs' }],
        },
        { id: 'notes', question: 'Anything else?' },
      ],
    }
    const run = runCli(['ask', '--json', '-'], env, JSON.stringify(args))
    const ask = await ui.nextAsk()
    expect(ask.questions).toEqual(args.questions)
    await ui.answer(ask.askId, [
      { id: 'targets', selected: ['tests', 'docs'], custom: 'release notes' },
      { id: 'notes', selected: [], custom: 'ship today' },
    ])
    const result = await run.done
    expect(result.stdout).toBe(
      '{"answers":[{"id":"targets","selected":["tests","docs"],"custom":"release notes"},{"id":"notes","selected":[],"custom":"ship today"}]}\n',
    )
    expect(result.code).toBe(0)

    const multi = runCli(['ask', '--question', 'Pick', '--option', 'a', '--option', 'b', '--multi'], env)
    const second = await ui.nextAsk()
    expect(second.questions).toEqual([
      { id: 'q1', question: 'Pick', options: [{ label: 'a' }, { label: 'b' }], multi_select: true },
    ])
    await ui.answer(second.askId, [{ id: 'q1', selected: ['b', 'a'] }])
    expect(await multi.done).toMatchObject({ code: 0, stdout: '{"answers":[{"id":"q1","selected":["b","a"]}]}\n' })
  })

  it('--detail and --detail-file reach the window; --json (tool arguments) drops detail and intent', async () => {
    const { ui, env } = await setup()
    const dir = await mkdtemp(join(tmpdir(), 'ask-user-detail-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    const file = join(dir, 'plan.md')
    await writeFile(file, '# Plan\n\n1. migrate\n')
    const fromText = runCli(['ask', '--question', 'OK?', '--detail', '**bold** plan'], env)
    const first = await ui.nextAsk()
    expect(first.questions).toEqual([{ id: 'q1', question: 'OK?', detail: '**bold** plan' }])
    await ui.answer(first.askId, [{ id: 'q1', selected: [], custom: 'yes' }])
    expect(await fromText.done).toMatchObject({ code: 0 })

    const fromFile = runCli(['ask', '--question', 'OK?', '--detail-file', file], env)
    const second = await ui.nextAsk()
    expect(second.questions).toEqual([{ id: 'q1', question: 'OK?', detail: '# Plan\n\n1. migrate\n' }])
    await ui.answer(second.askId, [{ id: 'q1', selected: [], custom: 'yes' }])
    expect(await fromFile.done).toMatchObject({ code: 0 })

    const args = {
      questions: [
        {
          id: 'a',
          question: 'q',
          detail: 'x',
          intent: { kind: 'plan-review', approve: 'y' },
          options: [{ label: 'y' }],
        },
      ],
    }
    const json = runCli(['ask', '--json', '-'], env, JSON.stringify(args))
    const third = await ui.nextAsk()
    expect(third.questions).toEqual([{ id: 'a', question: 'q', options: [{ label: 'y' }] }])
    await ui.answer(third.askId, [{ id: 'a', selected: ['y'] }])
    expect(await json.done).toMatchObject({ code: 0 })
  })

  it('exit 2: --detail with --detail-file, --detail with --json, an unreadable --detail-file', async () => {
    const { env } = await setup()
    const both = await runCli(['ask', '--question', 'q', '--detail', 'a', '--detail-file', '/x'], env).done
    expect(both).toMatchObject({ code: 2, stderr: 'Error: --detail cannot be combined with --detail-file\n' })
    const json = await runCli(['ask', '--json', '-', '--detail', 'a'], env, '{}').done
    expect(json).toMatchObject({ code: 2, stderr: 'Error: --json cannot be combined with --detail\n' })
    const missing = await runCli(['ask', '--question', 'q', '--detail-file', '/nonexistent/plan.md'], env).done
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^Error: cannot read \/nonexistent\/plan\.md: ENOENT/)
  })

  it('exit 2: invalid input, nothing on stdout, no ask reaches the companion', async () => {
    const { tc, env } = await setup()
    const result = await runCli(
      ['ask', '--json', '-'],
      env,
      '{"questions":[{"id":"a","question":"q","multi_select":"yes"}]}',
    ).done
    expect(result).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: 'Error: invalid arguments: "questions[0].multi_select" must be a boolean\n',
    })
    expect(tc.companion.pending()).toEqual([])
  })

  it('exit 3: the person dismissed the ask', async () => {
    const { ui, env } = await setup()
    const run = runCli(['ask', '--question', 'Proceed?'], env)
    await ui.dismiss((await ui.nextAsk()).askId)
    expect(await run.done).toEqual({
      code: 3,
      signal: null,
      stdout: '',
      stderr: 'Error: the user cancelled ask_user_question\n',
    })
  })

  it('exit 4: no companion, with how to start one', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ask-user-none-'))
    cleanups.push(() => rm(home, { recursive: true, force: true }))
    const result = await runCli(['ask', '--question', 'Anyone?'], { ASK_USER_HOME: home }).done
    expect(result).toEqual({
      code: 4,
      signal: null,
      stdout: '',
      stderr: `Error: no Ask User Companion is running (no endpoint.json in ${home}); start the Ask User Companion app, or run \`ask-user serve\`\n`,
    })
  })

  it('exit 4: the companion went away mid-wait', async () => {
    const { tc, ui, env } = await setup()
    const run = runCli(['ask', '--question', 'Still there?'], env)
    await ui.nextAsk()
    await tc.cleanup()
    expect(await run.done).toEqual({
      code: 4,
      signal: null,
      stdout: '',
      stderr: 'Error: the Ask User Companion went away: the companion is shutting down\n',
    })
  })

  it('exit 124: timed out, and the ask is withdrawn', async () => {
    const { tc, ui, env } = await setup()
    const run = runCli(['ask', '--question', 'Quick?', '--timeout', '0.5'], env)
    const ask = await ui.nextAsk()
    expect(await run.done).toEqual({
      code: 124,
      signal: null,
      stdout: '',
      stderr: 'Error: no answer within 0.5 s: the ask timed out and was withdrawn\n',
    })
    await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === ask.askId)
    expect(tc.companion.pending()).toEqual([])
  })

  it('exit 130: interrupted (SIGINT), and the ask is withdrawn', async () => {
    const { tc, ui, env } = await setup()
    const run = runCli(['ask', '--question', 'Wait?'], env)
    const ask = await ui.nextAsk()
    run.child.kill('SIGINT')
    expect(await run.done).toEqual({
      code: 130,
      signal: null,
      stdout: '',
      stderr: 'Error: the ask was aborted before the person answered\n',
    })
    await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === ask.askId)
    expect(tc.companion.pending()).toEqual([])
  })
})

describe('ask-user status as a child process', () => {
  it('exit 0: prints the endpoint and the pending count, never the token', async () => {
    const { tc, ui, env } = await setup()
    const waiting = runCli(['ask', '--question', 'Pending?'], env)
    const ask = await ui.nextAsk()
    const result = await runCli(['status'], env).done
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`endpoint: ${tc.companion.agentUrl}\n`)
    expect(result.stdout).toContain('pending asks: 1\n')
    expect(result.stdout).not.toContain(tc.companion.token)
    expect(result.stderr).toBe('')
    const json = await runCli(['status', '--json'], env).done
    expect(JSON.parse(json.stdout)).toMatchObject({ url: tc.companion.agentUrl, pending: 1, windows: 1 })
    expect(json.stdout).not.toContain(tc.companion.token)
    await ui.answer(ask.askId, [{ id: 'q1', selected: [] }])
    expect((await waiting.done).code).toBe(0)
  })

  it('exit 4: unreachable, with how to start it', async () => {
    const tc = await startTestCompanion()
    const url = tc.companion.agentUrl
    const token = tc.companion.token
    await tc.cleanup()
    const result = await runCli(['status'], { ASK_USER_URL: url, ASK_USER_TOKEN: token }).done
    expect(result.code).toBe(4)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `Error: cannot reach the Ask User Companion at ${url} (ECONNREFUSED); start the Ask User Companion app, or run \`ask-user serve\`\n`,
    )
  })
})
