// One harness session is one agent in the inbox: the real `ask-user hook` and `ask-user ask` as child
// processes (each under its own parent, as a harness runs them), a real companion on port 0, and the
// asks as a window receives them, grouped by the one agent key the list uses.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { V1Ask as Ask } from '../../../../core/ask-v1'
import { agentKey } from '../../../../shared/agent-key'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { BIN, ensureBuilt } from '../built-cli'
import { hookFixtures } from './fixtures'

const event = hookFixtures().find((f) => f.harness === 'claude-code' && f.name === 'permission-bash-allow')!
  .event as Record<string, unknown>

/**
 * Runs `ask-user …args` under a shell of its own (the shell stays, so every run has its own parent
 * pid, as every hook call of a harness may), in `cwd`, with `stdin`. Resolves when it has exited.
 */
function runUnderShell(args: string[], env: Record<string, string>, cwd: string, stdin = ''): Promise<number | null> {
  const quoted = [process.execPath, BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
  const child = spawn('sh', ['-c', `${quoted}; exit $?`], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  child.stdin.end(stdin)
  return new Promise((resolve) => child.on('close', (code) => resolve(code)))
}

beforeAll(() => ensureBuilt(), 120_000)

describe('grouping by session, not by process', () => {
  let tc: TestCompanion
  let ui: UiClient
  let folder: string
  const runs: Promise<number | null>[] = []
  beforeAll(async () => {
    tc = await startTestCompanion()
    ui = await connectUi(tc.companion)
    folder = await mkdtemp(join(tmpdir(), 'ask-user-group-'))
  })
  afterAll(async () => {
    await Promise.all(runs)
    await ui?.close()
    await tc?.cleanup()
    await rm(folder, { recursive: true, force: true })
  })

  /** Waits for `n` asks matching `predicate`, in the order they arrive. */
  async function asks(n: number, predicate: (ask: Ask) => boolean): Promise<Ask[]> {
    const got: Ask[] = []
    while (got.length < n) got.push(await ui.nextAsk(predicate, 30_000))
    return got
  }

  /** The groups the inbox makes of `list` (by the one agent key): what each names, and how many asks. */
  function groups(list: readonly Ask[], named: (ask: Ask) => string | undefined): [string | undefined, number][] {
    const byKey = new Map<string, [string | undefined, number]>()
    for (const ask of list) {
      const group = byKey.get(agentKey(ask.agent)) ?? [named(ask), 0]
      group[1]++
      byKey.set(agentKey(ask.agent), group)
    }
    return [...byKey.values()].sort()
  }

  async function dismissAll(list: readonly Ask[]): Promise<void> {
    for (const ask of list) await ui.dismiss(ask.askId)
  }

  it('two hook calls of one session under different parents are one group; another session is another', async () => {
    const env = { ASK_USER_HOME: tc.home }
    const session = (id: string, cwd: string) => JSON.stringify({ ...event, session_id: id, cwd })
    runs.push(runUnderShell(['hook', 'claude-code'], env, folder, session('session-one', '/work/a')))
    runs.push(runUnderShell(['hook', 'claude-code'], env, folder, session('session-one', '/work/b')))
    runs.push(runUnderShell(['hook', 'claude-code'], env, folder, session('session-two', '/work/a')))
    const got = await asks(3, (ask) => ask.agent.name === 'Claude Code')
    expect(new Set(got.map((ask) => ask.agent.pid)).size).toBe(3)
    expect(groups(got, (ask) => ask.agent.session)).toEqual([
      ['session-one', 2],
      ['session-two', 1],
    ])
    await dismissAll(got)
  }, 60_000)

  it('two `ask` processes in one folder are one group; --agent names another', async () => {
    const env = { ASK_USER_HOME: tc.home }
    runs.push(runUnderShell(['ask', '--question', 'First?'], env, folder))
    runs.push(runUnderShell(['ask', '--question', 'Second?'], env, folder))
    runs.push(runUnderShell(['ask', '--agent', 'deploy-bot', '--question', 'Third?'], env, folder))
    const got = await asks(3, (ask) => ask.questions.length > 0)
    expect(new Set(got.map((ask) => ask.agent.pid)).size).toBe(3)
    expect(groups(got, (ask) => ask.agent.name)).toEqual([
      ['ask-user', 2],
      ['deploy-bot', 1],
    ])
    await dismissAll(got)
  }, 60_000)
})
