// `ask-user hook <harness>` as the harness runs it: the built CLI as a child process, the event on
// stdin, a real companion on port 0 and a scripted window answering; stdout compared byte for byte.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOOK_HARNESS_IDS } from '../../../../integrations/ids'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { cliStartUpMs, ensureBuilt, runCli } from '../built-cli'
import { hookFixtures, type HookFixture } from './fixtures'

const fixtures = hookFixtures()
const asks = fixtures.filter((f) => f.answers !== undefined)
const approvals = fixtures.filter((f) => f.decision !== undefined)
const notices = fixtures.filter((f) => f.notice !== undefined)
const dismissals = fixtures.filter((f) => f.dismissed === true)

function hookArgs(f: HookFixture): string[] {
  return f.argument !== undefined ? ['hook', f.harness, JSON.stringify(f.argument)] : ['hook', f.harness]
}

beforeAll(() => ensureBuilt(), 120_000)

describe('with a companion', () => {
  let tc: TestCompanion
  let ui: UiClient
  beforeAll(async () => {
    tc = await startTestCompanion()
    ui = await connectUi(tc.companion)
  })
  afterAll(async () => {
    await ui?.close()
    await tc?.cleanup()
  })

  for (const f of asks) {
    it(`${f.harness}/${f.name}: the window's answer comes out as the harness's exact JSON`, async () => {
      const run = runCli(hookArgs(f), { ASK_USER_HOME: tc.home }, JSON.stringify(f.event))
      const ask = await ui.nextAsk(undefined, 15_000)
      expect(ask.questions).toEqual(f.questions)
      expect(await ui.answer(ask.askId, f.answers!)).toMatchObject({ type: 'accepted' })
      const done = await run.done
      expect(done.code).toBe(0)
      expect(done.stdout).toBe(f.stdout)
    })
  }

  for (const f of approvals) {
    it(`${f.harness}/${f.name}: the window's decision comes out as the harness's exact JSON`, async () => {
      const run = runCli(hookArgs(f), { ASK_USER_HOME: tc.home }, JSON.stringify(f.event))
      const ask = await ui.nextAsk(undefined, 15_000)
      if (f.expect) expect(ask.approval).toEqual(f.expect)
      expect(ask.questions).toEqual([])
      expect(await ui.decide(ask.askId, f.decision)).toMatchObject({ type: 'accepted' })
      const done = await run.done
      expect(done.code).toBe(0)
      expect(done.stdout).toBe(f.stdout)
    })
  }

  for (const f of dismissals) {
    it(`${f.harness}/${f.name}: a dismissed card comes out as the harness's exact JSON`, async () => {
      const run = runCli(hookArgs(f), { ASK_USER_HOME: tc.home }, JSON.stringify(f.event))
      await ui.dismiss((await ui.nextAsk(undefined, 15_000)).askId)
      expect(await run.done).toEqual({ code: 0, signal: null, stdout: f.stdout, stderr: '' })
    })
  }

  for (const f of notices) {
    it(`${f.harness}/${f.name}: the notice is sent (no complaint on stderr), nothing printed`, async () => {
      // The core takes the notice frame; its way to the window (notice/added) is the core's to test.
      const done = await runCli(
        hookArgs(f),
        { ASK_USER_HOME: tc.home },
        f.argument !== undefined ? '' : JSON.stringify(f.event),
      ).done
      expect(done).toEqual({ code: 0, signal: null, stdout: '', stderr: '' })
    })
  }

  it('a dismissed approval prints nothing, so the harness asks in its own way', async () => {
    const f = approvals.find((x) => x.harness === 'codex')!
    const run = runCli(hookArgs(f), { ASK_USER_HOME: tc.home }, JSON.stringify(f.event))
    const ask = await ui.nextAsk(undefined, 15_000)
    await ui.dismiss(ask.askId)
    expect(await run.done).toMatchObject({ code: 0, stdout: '' })
  })

  it('a dismissed question prints nothing and exits 0, so Claude shows its own dialog', async () => {
    const f = asks.find((x) => x.harness === 'claude-code')!
    const run = runCli(hookArgs(f), { ASK_USER_HOME: tc.home }, JSON.stringify(f.event))
    const ask = await ui.nextAsk(undefined, 15_000)
    await ui.dismiss(ask.askId)
    const done = await run.done
    expect(done).toMatchObject({ code: 0, stdout: '' })
    expect(done.stderr).toMatch(/^ask-user hook claude-code: .*; nothing printed\n$/)
  })

  it('SIGTERM from the harness withdraws the card', async () => {
    const f = asks.find((x) => x.harness === 'claude-code')!
    const run = runCli(hookArgs(f), { ASK_USER_HOME: tc.home }, JSON.stringify(f.event))
    const ask = await ui.nextAsk(undefined, 15_000)
    run.child.kill('SIGTERM')
    const resolved = await ui.nextFrame(
      (frame) => frame.type === 'question/resolved' && frame.askId === ask.askId,
      15_000,
    )
    expect(resolved).toMatchObject({ outcome: expect.stringMatching(/^(aborted|agent-gone)$/) })
    expect((await run.done).stdout).toBe('')
  })
})

describe('without a companion', () => {
  let home: string
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'ask-user-hook-none-'))
  })
  afterAll(() => rm(home, { recursive: true, force: true }))

  for (const f of fixtures) {
    it(`${f.harness}/${f.name}: prints nothing, exits 0, within a second of the CLI's own start-up`, async () => {
      const floor = await cliStartUpMs({ ASK_USER_HOME: home })
      const started = performance.now()
      const done = await runCli(
        hookArgs(f),
        { ASK_USER_HOME: home },
        f.argument !== undefined ? '' : JSON.stringify(f.event),
      ).done
      const ms = performance.now() - started
      expect(done.code).toBe(0)
      expect(done.stdout).toBe('')
      expect(done.stderr).toMatch(/nothing printed\n$/)
      // The one timing assertion the issue asks for: the harness falls back to its prompt at once.
      expect(ms).toBeLessThan(floor + 1000)
    })
  }

  it('refused connection (a stale endpoint.json) falls back just as fast', async () => {
    const stale = await mkdtemp(join(tmpdir(), 'ask-user-hook-stale-'))
    try {
      const tc = await startTestCompanion({ home: stale })
      await tc.companion.close()
      const f = fixtures.find((x) => x.name === 'ask-user-question')!
      const floor = await cliStartUpMs({ ASK_USER_HOME: stale })
      const started = performance.now()
      const done = await runCli(
        hookArgs(f),
        { ASK_USER_HOME: stale, ASK_USER_URL: 'ws://127.0.0.1:9/v1/agent', ASK_USER_TOKEN: 'x' },
        JSON.stringify(f.event),
      ).done
      expect(done).toMatchObject({ code: 0, stdout: '' })
      expect(performance.now() - started).toBeLessThan(floor + 1000)
    } finally {
      await rm(stale, { recursive: true, force: true })
    }
  })

  it('bad stdin prints nothing and says why', async () => {
    const done = await runCli(['hook', 'claude-code'], { ASK_USER_HOME: home }, 'not json').done
    expect(done).toMatchObject({ code: 0, stdout: '' })
    expect(done.stderr).toMatch(/^ask-user hook claude-code: .*JSON.*; nothing printed\n$/)
  })

  it('an unknown harness is a usage error (exit 2)', async () => {
    const done = await runCli(['hook', 'vim'], { ASK_USER_HOME: home }, '{}').done
    expect(done.code).toBe(2)
    expect(done.stderr).toBe(`Error: unknown harness "vim"; one of ${HOOK_HARNESS_IDS.join(', ')}\n`)
  })
})
