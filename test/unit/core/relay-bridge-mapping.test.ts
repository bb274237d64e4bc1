// The bridge's pure half (core/relay-bridge/remote-asks.ts): how a remote ask enters the registry, how
// the relay's outcomes and this desk's answer results settle it; the registry with an owner that sends
// answers first; the relay's notices on a real NoticeBoard. The whole path is relay-bridge.test.ts.
import { describe, expect, it } from 'vitest'
import { NoticeBoard } from '../../../core/notice-board'
import { Registry, REMOTE_DISMISS_REASON, type Settlement } from '../../../core/registry'
import { RelayNotices } from '../../../core/relay-bridge/relay-notices'
import {
  answerSettlement,
  relaySettlement,
  remoteNewAsk,
  remoteSecretRefused,
} from '../../../core/relay-bridge/remote-asks'
import type { Member } from '../../../relay/crypto'
import type { Answer } from '../../../shared/answer'
import { limitExceededMessage, overCap } from '../../../shared/issue-wording'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { RemoteAsk } from '../../../relay/exchange'

const member = (name: string, id: string): Member => ({
  id,
  name,
  role: 'device',
  suite: 'x25519-ed25519',
  hpkePublic: 'a'.repeat(43),
  signPublic: 'b'.repeat(43),
})
const ANSWERS = [{ id: 'db', selected: ['Postgres'] }]
const remote = (questions: RemoteAsk['questions'], extra: Partial<RemoteAsk> = {}): RemoteAsk => ({
  key: 'q.ci-job.a1',
  askId: 'a1',
  agent: { name: 'ci-job', id: 'agent-id-1' },
  questions,
  ...extra,
})

describe('a remote ask as the registry lists it', () => {
  it("takes the roster's agent name, the known question fields and marks the origin", () => {
    const input = remoteNewAsk(
      remote(
        [
          {
            id: 'db',
            question: 'Which?',
            options: [{ label: 'Postgres' }],
            cwd: '/etc',
            askpass: { receiver: 'sudo' },
          },
        ],
        { title: 'Nightly' },
      ),
      DEFAULT_LIMITS,
    )
    expect(input).toEqual({
      kind: 'question',
      agent: { name: 'ci-job' },
      title: 'Nightly',
      questions: [{ id: 'db', question: 'Which?', options: [{ label: 'Postgres' }] }],
      origin: { kind: 'relay', agentId: 'agent-id-1' },
      wireId: 'q.ci-job.a1',
    })
    // Nothing the agent put in its body becomes the companion's askpass mark.
    expect(input).not.toHaveProperty('askpass')
  })

  it("is held to the companion's caps and rules as a local agent's ask is", () => {
    const limits = { ...DEFAULT_LIMITS, textChars: 10 }
    expect(remoteNewAsk(remote([{ id: 'a', question: 'Short?' }], { title: 'a title too long' }), limits)).toEqual({
      ok: false,
      code: 'LIMIT_EXCEEDED',
      message: limitExceededMessage([overCap('title', 16, 10)]),
    })
    expect(remoteNewAsk(remote([{ id: 'a', question: 'A question longer than ten?' }]), limits)).toMatchObject({
      ok: false,
      code: 'LIMIT_EXCEEDED',
    })
    expect(
      remoteNewAsk(remote([{ id: 'pw', question: 'Pick?', secret: true, options: [{ label: 'x' }] }]), DEFAULT_LIMITS),
    ).toMatchObject({ ok: false, code: 'INVALID_ARGS' })
  })

  it('a secret question makes it unanswerable here, with the reason', () => {
    const input = remoteNewAsk(remote([{ id: 'pw', question: 'Password?', secret: true }]), DEFAULT_LIMITS)
    if (!('kind' in input) || input.kind !== 'question') throw new Error('not a question ask')
    expect(input.origin).toEqual({
      kind: 'relay',
      agentId: 'agent-id-1',
      unanswerable: remoteSecretRefused(input.agent.name),
    })
    expect(input.questions).toEqual([{ id: 'pw', question: 'Password?', secret: true }])
  })

  it('the reason names the exact command that allows it; allowed for the agent, the secret ask is answerable', () => {
    expect(remoteSecretRefused('ci-job')).toBe(
      'Remote passwords are not allowed for "ci-job" on this desk. To answer it here, run: ask-user relay passwords allow ci-job',
    )
    const input = remoteNewAsk(remote([{ id: 'pw', question: 'Password?', secret: true }]), DEFAULT_LIMITS, true)
    if (!('kind' in input)) throw new Error(input.message)
    expect(input.origin).toEqual({ kind: 'relay', agentId: 'agent-id-1' })
  })
})

describe("another desktop's mirrored approval as the registry lists it", () => {
  const APPROVAL = {
    harness: 'claude-code',
    tool: 'Bash',
    action: { kind: 'command', command: 'rm -rf build' },
    always: { label: 'Bash(rm:*) in this project' },
  } as const
  const mirrored = (approval: object): RemoteAsk =>
    remote([], {
      key: 'q.desk-1.a9',
      agent: { name: 'claude (on office)', id: 'desk-1' },
      approval,
    } as Partial<RemoteAsk>)

  it('becomes an approval ask named as the relay names it, marked remote, without its "always allow" offer', () => {
    const input = remoteNewAsk(mirrored(APPROVAL), DEFAULT_LIMITS)
    const { always: _always, ...request } = APPROVAL
    expect(input).toEqual({
      kind: 'approval',
      agent: { name: 'claude (on office)' },
      approval: request,
      origin: { kind: 'relay', agentId: 'desk-1' },
      wireId: 'q.desk-1.a9',
    })
  })

  it("is checked as a local agent's approval is: over this companion's caps it is refused, not listed", () => {
    const limits = { ...DEFAULT_LIMITS, textChars: 30 }
    const input = remoteNewAsk(mirrored({ ...APPROVAL, tool: 'x'.repeat(31) }), limits)
    expect(input).toEqual({
      ok: false,
      code: 'LIMIT_EXCEEDED',
      message: limitExceededMessage([overCap('approval.tool', 31, 30)]),
    })
  })

  it("settles decided: won with this desk's decision, lost with the winner named, the decision unknown here", () => {
    const once = { behavior: 'allow' } as const
    expect(answerSettlement({ won: true }, { decision: once }, 'me')).toEqual({ outcome: 'decided', decision: once })
    expect(answerSettlement({ won: false, winner: member('phone', 'p') }, { decision: once }, 'me')).toEqual({
      outcome: 'decided',
      answeredOn: 'phone',
    })
    const laptop = member('laptop', 'laptop-id')
    expect(relaySettlement({ key: 'k', outcome: 'delivered', winner: laptop }, 'approval')).toEqual({
      outcome: 'decided',
      answeredOn: 'laptop',
    })
  })
})

describe("the relay's outcomes as settlements", () => {
  it('delivered names the winning device; expired, withdrawn and reasked end it without an answer', () => {
    const laptop = member('laptop', 'laptop-id')
    expect(relaySettlement({ key: 'k', outcome: 'delivered', winner: laptop })).toEqual({
      outcome: 'answered',
      answers: [],
      answeredOn: 'laptop',
    })
    expect(relaySettlement({ key: 'k', outcome: 'expired' })).toEqual({ outcome: 'expired' })
    expect(relaySettlement({ key: 'k', outcome: 'withdrawn' })).toEqual({ outcome: 'aborted', by: 'agent' })
    expect(relaySettlement({ key: 'k', outcome: 'reasked', next: 'a2' })).toEqual({ outcome: 'aborted', by: 'agent' })
  })

  it("this desk's answer: won, lost to another device, its own stored answer, or an alarm", () => {
    expect(answerSettlement({ won: true }, { answers: ANSWERS }, 'me')).toEqual({
      outcome: 'answered',
      answers: ANSWERS,
    })
    expect(answerSettlement({ won: false, winner: member('laptop', 'other') }, { answers: ANSWERS }, 'me')).toEqual({
      outcome: 'answered',
      answers: [],
      answeredOn: 'laptop',
    })
    expect(answerSettlement({ won: false, winner: member('this desk', 'me') }, { answers: ANSWERS }, 'me')).toEqual({
      outcome: 'answered',
      answers: ANSWERS,
    })
    expect(
      answerSettlement({ won: false, winner: undefined, alarm: 'ANSWER_SIGNATURE' }, { answers: ANSWERS }, 'me'),
    ).toEqual({
      ok: false,
      code: 'INVALID_ANSWER',
      message:
        "an answer this desk cannot verify took this ask's place on the relay (ANSWER_SIGNATURE); nothing of yours was taken. The agent asks again: answer the new ask.",
    })
  })
})

describe("the relay's notices", () => {
  it('one unreachable notice until the relay is back; alarms and problems each their own', () => {
    const board = new NoticeBoard(
      () => 1,
      () => undefined,
    )
    const notices = new RelayNotices(board)
    notices.unreachable('tls://relay.example:4222')
    notices.unreachable('tls://relay.example:4222')
    expect(board.list()).toMatchObject([
      {
        agent: { name: 'Relay' },
        title: 'Relay unreachable',
        notice: {
          kind: 'info',
          text: 'The relay at tls://relay.example:4222 is unreachable. Agents on this machine are not affected; remote asks stay listed and can be answered once it is back.',
        },
      },
    ])
    notices.reachable()
    expect(board.list()).toEqual([])
    notices.alarm('x')
    notices.problem('y')
    expect(board.list().map((n) => [n.title, n.notice.text])).toEqual([
      ['Relay alarm', 'Alarm: x'],
      ['Relay', 'y'],
    ])
  })
})

describe('the registry with an owner that sends answers first (a remote ask)', () => {
  const QUESTION = [{ id: 'db', question: 'Which?', options: [{ label: 'Postgres' }] }]

  it('one answer at a time; the ask settles by what the owner resolves; dismissing is refused', async () => {
    const registry = new Registry(
      () => 5,
      () => undefined,
    )
    const sent: Answer[][] = []
    let land!: (settlement: Settlement) => void
    const ask = registry.add({
      kind: 'question',
      agent: { name: 'ci-job' },
      questions: QUESTION,
      origin: { kind: 'relay', agentId: 'agent-id-1' },
      wireId: 'q.ci-job.a1',
      owner: {
        settled: () => true,
        submit: (_key, answers) => {
          sent.push(answers)
          return new Promise((resolve) => (land = resolve))
        },
      },
    })
    const first = registry.answer(ask.askId, ANSWERS)
    expect(first).toBeInstanceOf(Promise)
    expect(await registry.answer(ask.askId, ANSWERS)).toEqual({
      ok: false,
      code: 'INVALID_ANSWER',
      message: 'another answer to this ask is already on its way; wait for its outcome',
    })
    expect(registry.dismiss(ask.askId)).toEqual({ ok: false, code: 'FORBIDDEN', message: REMOTE_DISMISS_REASON })
    expect(registry.size).toBe(1)
    land({ outcome: 'answered', answers: [], answeredOn: 'laptop-b' })
    expect(await first).toEqual({
      ok: false,
      code: 'NOT_PENDING',
      message: 'answered on laptop-b first; your answer was not sent',
    })
    expect(sent).toEqual([ANSWERS])
    expect(registry.size).toBe(0)
  })
})
