// Approvals through the real companion: agent socket → registry → window socket → agent, on port 0.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '../../../shared/approval'
import { NOTICES_PER_AGENT } from '../../../core/notice-board'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { V1ServerFrame as UiServerFrame } from '../../../core/ui-v1'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { asApproval } from '../../helpers/ask-kinds'
import { connectUi, type UiClient } from '../../helpers/ui-client'
import { askFrame, helloAgent, type RawAgent } from '../core/raw-agent'
import { WAIT_MS } from '../../helpers/waits'

const npmTest: ApprovalRequest = {
  tool: 'Bash',
  harness: 'claude-code',
  action: { kind: 'command', command: 'npm test', cwd: '/src/app', description: 'Run the tests' },
  always: { label: 'Always allow `npm test` in this project' },
}

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(): Promise<{ tc: TestCompanion; ui: UiClient; agent: RawAgent; texts: string[] }> {
  const tc = await startTestCompanion()
  cleanups.push(tc.cleanup)
  const ui = await connectUi(tc.companion)
  cleanups.push(() => ui.close())
  const agent = await helloAgent(tc.companion, 'Claude Code')
  const texts: string[] = []
  agent.socket.on('message', (data) => texts.push(String(data)))
  cleanups.push(async () => agent.socket.close())
  return { tc, ui, agent, texts }
}

describe('an approval through the companion', () => {
  it('reaches the window with empty questions, and the decision reaches the agent byte-exact', async () => {
    const { tc, ui, agent, texts } = await setup()
    agent.send({ type: 'approve', id: 'p1', title: 'refactor', approval: npmTest })
    const ask = await ui.nextAsk()
    expect(ask).toMatchObject({ agent: { name: 'Claude Code' }, title: 'refactor', questions: [], approval: npmTest })
    expect(await ui.decide(ask.askId, { behavior: 'allow', always: true })).toEqual({
      type: 'accepted',
      askId: ask.askId,
      outcome: 'answered',
    })
    await agent.next((f) => f.type === 'decision')
    expect(texts.at(-1)).toBe('{"type":"decision","id":"p1","decision":{"behavior":"allow","always":true}}')
    expect(await ui.nextFrame((f) => f.type === 'question/resolved')).toEqual({
      type: 'question/resolved',
      askId: ask.askId,
      outcome: 'answered',
    })
    // The companion and its history file (read flushes it) keep it as what it is: an approval, decided.
    const [entry] = await tc.companion.history()
    const decided = {
      askId: ask.askId,
      kind: 'approval',
      outcome: 'decided',
      approval: npmTest,
      decision: { behavior: 'allow', always: true },
    }
    expect(entry).toMatchObject(decided)
    expect(entry).not.toHaveProperty('questions')
    expect(entry).not.toHaveProperty('answers')
    const [line] = (await readFile(join(tc.home, 'history.jsonl'), 'utf8')).split('\n')
    expect(JSON.parse(line!)).toMatchObject(decided)
    // A v1 window reads it as v1 always showed a decision: no questions, outcome `answered`.
    ui.send({ type: 'history/get' })
    const page = await ui.nextFrame<Extract<UiServerFrame, { type: 'history' }>>((f) => f.type === 'history')
    expect(page.entries[0]).toMatchObject({
      askId: ask.askId,
      questions: [],
      outcome: 'answered',
      approval: npmTest,
      decision: { behavior: 'allow', always: true },
    })
    expect(page.entries[0]).not.toHaveProperty('kind')
  })

  it('sends a deny with its reason, and keeps the reason in history', async () => {
    const { tc, ui, agent, texts } = await setup()
    agent.send({
      type: 'approve',
      id: 'p2',
      approval: { tool: 'Bash', action: { kind: 'command', command: 'rm -rf build' } },
    })
    const ask = await ui.nextAsk()
    expect(await ui.decide(ask.askId, { behavior: 'deny', message: 'use make clean' })).toMatchObject({
      type: 'accepted',
    })
    await agent.next((f) => f.type === 'decision')
    expect(texts.at(-1)).toBe('{"type":"decision","id":"p2","decision":{"behavior":"deny","message":"use make clean"}}')
    expect(asApproval((await tc.companion.history())[0]!).decision).toEqual({
      behavior: 'deny',
      message: 'use make clean',
    })
  })

  it('dismissal is ASK_CANCELLED; an agent cancel and a closed socket withdraw it; never a default decision', async () => {
    const { tc, ui, agent } = await setup()
    agent.send({ type: 'approve', id: 'd', approval: npmTest })
    const dismissed = await ui.nextAsk()
    expect(await ui.dismiss(dismissed.askId)).toMatchObject({ type: 'accepted', outcome: 'cancelled' })
    expect(await agent.next((f) => 'id' in f && f.id === 'd')).toEqual({
      type: 'cancelled',
      id: 'd',
      code: 'ASK_CANCELLED',
      message: 'the user cancelled ask_user_question',
    })

    agent.send({ type: 'approve', id: 'c', approval: npmTest })
    const cancelled = await ui.nextAsk()
    agent.send({ type: 'cancel', id: 'c' })
    expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === cancelled.askId)).toMatchObject({
      outcome: 'aborted',
    })

    agent.send({ type: 'approve', id: 'g', approval: npmTest })
    const gone = await ui.nextAsk()
    agent.socket.close()
    expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === gone.askId)).toMatchObject({
      outcome: 'agent-gone',
    })
    expect(await ui.decide(gone.askId, { behavior: 'allow' })).toMatchObject({ type: 'rejected', code: 'NOT_PENDING' })
    const outcomes = (await tc.companion.history()).map((e) => [e.outcome, asApproval(e).decision])
    expect(outcomes).toEqual([
      ['agent-gone', undefined],
      ['aborted', undefined],
      ['cancelled', undefined],
    ])
  })

  it('refuses the wrong kind of reply and an always that was not offered, and leaves the ask pending', async () => {
    const { ui, agent } = await setup()
    agent.send({ type: 'approve', id: 'once', approval: { ...npmTest, always: undefined } })
    const approval = await ui.nextAsk()
    agent.send(askFrame('q'))
    const question = await ui.nextAsk()
    // v1's words, byte for byte (scripts may match them); v2's name the frame to send (ui-channel.test.ts).
    expect(await ui.answer(approval.askId, [])).toEqual({
      type: 'rejected',
      askId: approval.askId,
      code: 'INVALID_ANSWER',
      reason: 'this ask is an approval: send a decision (allow or deny), not answers',
    })
    expect(await ui.decide(question.askId, { behavior: 'allow' })).toEqual({
      type: 'rejected',
      askId: question.askId,
      code: 'INVALID_ANSWER',
      reason: 'this ask has questions: send answers, not a decision',
    })
    expect(await ui.decide(approval.askId, { behavior: 'allow', always: true })).toMatchObject({
      type: 'rejected',
      code: 'INVALID_ANSWER',
      reason: expect.stringMatching(/always/),
    })
    expect(await ui.decide(approval.askId, { behavior: 'maybe' })).toMatchObject({
      type: 'rejected',
      code: 'INVALID_FRAME',
      reason: expect.stringMatching(/^invalid decide frame: "decision\.behavior" must be/),
    })
    const long = 'x'.repeat(DEFAULT_LIMITS.textChars + 1)
    expect(await ui.decide(approval.askId, { behavior: 'deny', message: long })).toMatchObject({
      type: 'rejected',
      code: 'INVALID_ANSWER',
    })
    expect(await ui.decide(approval.askId, { behavior: 'allow' })).toMatchObject({
      type: 'accepted',
      outcome: 'answered',
    })
    expect(await agent.next((f) => f.type === 'decision')).toEqual({
      type: 'decision',
      id: 'once',
      decision: { behavior: 'allow' },
    })
  })

  it('answers bad approve frames with INVALID_FRAME, INVALID_ARGS or LIMIT_EXCEEDED and stays usable', async () => {
    const { ui, agent } = await setup()
    const cases: Array<[object, string, RegExp]> = [
      [{ type: 'approve', approval: npmTest }, 'INVALID_FRAME', /^invalid approve: missing required property "id"$/],
      [{ type: 'approve', id: 'x' }, 'INVALID_ARGS', /^invalid arguments: missing required property "approval"$/],
      [
        { type: 'approve', id: 'x', approval: { tool: 'Bash', action: { kind: 'command' } } },
        'INVALID_ARGS',
        /missing required property "approval\.action\.command"/,
      ],
      [
        {
          type: 'approve',
          id: 'x',
          approval: { tool: 'Bash', action: { kind: 'command', command: 'x'.repeat(200_001) } },
        },
        'LIMIT_EXCEEDED',
        /"approval\.action\.command" has 200001 characters; at most 200000/,
      ],
      [
        { type: 'notice', notice: { kind: 'shout', text: 'x' } },
        'INVALID_ARGS',
        /"notice\.kind" must be "needs-input" or "turn-complete" or "info"/,
      ],
    ]
    for (const [frame, code, message] of cases) {
      agent.send(frame)
      const error = await agent.next((f) => f.type === 'error')
      expect(error).toMatchObject({ code, message: expect.stringMatching(message) })
    }
    agent.send({ type: 'approve', id: 'ok', approval: npmTest })
    agent.send({ type: 'approve', id: 'ok', approval: npmTest })
    expect(await agent.next((f) => f.type === 'error')).toMatchObject({ id: 'ok', code: 'DUPLICATE_ID' })
    expect((await ui.nextAsk()).approval).toEqual(npmTest)
  })

  it('counts approvals against the pending cap of a connection', async () => {
    const tc = await startTestCompanion({ settings: { limits: { ...DEFAULT_LIMITS, pendingPerConnection: 2 } } })
    cleanups.push(tc.cleanup)
    const agent = await helloAgent(tc.companion)
    cleanups.push(async () => agent.socket.readyState === WebSocket.OPEN && agent.socket.close())
    agent.send(askFrame('a'))
    agent.send({ type: 'approve', id: 'b', approval: npmTest })
    agent.send({ type: 'approve', id: 'c', approval: npmTest })
    expect(await agent.next((f) => f.type === 'error')).toMatchObject({ id: 'c', code: 'LIMIT_EXCEEDED' })
  })
})

describe('notices', () => {
  it('reach every window, outlive their connection, are cleared by a window, and are capped per agent', async () => {
    const { tc, ui, agent } = await setup()
    const told: string[] = [] // the desktop app's notifications listen here
    const off = tc.companion.on('notice', (notice) => void told.push(notice.notice.text))
    cleanups.push(async () => off())
    agent.send({ type: 'notice', title: 'tests', notice: { kind: 'turn-complete', text: 'Claude finished' } })
    const added = await ui.nextFrame<Extract<UiServerFrame, { type: 'notice/added' }>>((f) => f.type === 'notice/added')
    expect(told).toEqual(['Claude finished'])
    expect(added.notice).toMatchObject({
      agent: { name: 'Claude Code' },
      title: 'tests',
      notice: { kind: 'turn-complete', text: 'Claude finished' },
    })
    expect(tc.companion.pending()).toEqual([]) // not an ask
    agent.socket.close()
    await agent.closed
    const late = await connectUi(tc.companion)
    cleanups.push(() => late.close())
    expect(late.snapshot.notices).toEqual([added.notice])
    late.send({ type: 'notice/dismiss', noticeId: added.notice.noticeId })
    expect(await ui.nextFrame((f) => f.type === 'notice/removed')).toEqual({
      type: 'notice/removed',
      noticeId: added.notice.noticeId,
    })
    late.send({ type: 'notice/dismiss', noticeId: added.notice.noticeId })
    expect(await late.nextFrame((f) => f.type === 'rejected')).toMatchObject({
      askId: added.notice.noticeId,
      code: 'NOT_PENDING',
    })

    const chatty = await helloAgent(tc.companion, 'Codex')
    cleanups.push(async () => chatty.socket.close())
    for (let i = 0; i < NOTICES_PER_AGENT + 3; i++)
      chatty.send({ type: 'notice', notice: { kind: 'info', text: `n${i}` } })
    await expect
      .poll(() => tc.companion.notices().map((n) => n.notice.text), { timeout: WAIT_MS })
      .toHaveLength(NOTICES_PER_AGENT)
    expect(tc.companion.notices()[0]?.notice.text).toBe('n3')
    expect(chatty.frames.filter((f) => f.type === 'error')).toEqual([]) // fire-and-forget: no reply
  })
})
