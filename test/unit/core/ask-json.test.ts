// An ask is serialized once (core/ask-json.ts); everything built from that text must be exactly what
// JSON.stringify of the whole object gives: `ask/added`, snapshot chunks, history lines.
import { describe, expect, it } from 'vitest'
import type { ApprovalAsk, Ask, QuestionAsk } from '../../../shared/ask'
import { askJson, askJsonWith } from '../../../core/ask-json'
import { historyEntry, historyLine } from '../../../core/history'
import type { Settlement } from '../../../core/registry'
import { addedJson } from '../../../core/snapshot-pager'

const ask: QuestionAsk = {
  kind: 'question',
  askId: '6f1c0000-0000-4000-8000-000000000001',
  agent: { name: 'Claude "Code"', pid: 7, cwd: '/tmp/p ü' },
  title: 'Pick one\n(emoji 🚀)',
  questions: [{ id: 'db', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }], multiSelect: false }],
  receivedAt: 1_700_000_000_123,
}
const secret: QuestionAsk = { ...ask, askId: 'secret-1', questions: [{ id: 'pw', question: 'Password', secret: true }] }
const approval: ApprovalAsk = {
  kind: 'approval',
  askId: 'approval-1',
  agent: ask.agent,
  title: ask.title,
  approval: { tool: 'Bash', action: { kind: 'command', command: 'rm -rf build' } },
  receivedAt: ask.receivedAt,
}

describe('an ask serialized once', () => {
  it('askJson is JSON.stringify, cached per ask', () => {
    expect(askJson(ask)).toBe(JSON.stringify(ask))
    expect(askJson(ask)).toBe(askJson(ask))
    expect(askJsonWith(ask, {})).toBe(JSON.stringify(ask))
    expect(askJsonWith(ask, { outcome: 'answered', n: 1 })).toBe(JSON.stringify({ ...ask, outcome: 'answered', n: 1 }))
  })

  it('the cached text is invisible on the ask: not a key, not in a clone, not in a deep equality', () => {
    const fresh: Ask = { ...ask, askId: 'fresh-1' }
    const copy = structuredClone(fresh)
    askJson(fresh)
    expect(Object.keys(fresh)).toEqual(Object.keys(copy))
    expect(structuredClone(fresh)).toEqual(copy)
    expect(fresh).toStrictEqual(copy)
    expect(JSON.stringify(fresh)).toBe(askJson(fresh))
  })

  it('ask/added from the cached text', () => {
    expect(addedJson(askJson(ask))).toBe(JSON.stringify({ type: 'ask/added', ask }))
  })

  const cases: Array<[string, Ask, Settlement, boolean]> = [
    ['answered', ask, { outcome: 'answered', answers: [{ id: 'db', selected: ['A'], custom: 'x"y' }] }, true],
    ['answered, undelivered', ask, { outcome: 'answered', answers: [{ id: 'db', selected: [] }] }, false],
    [
      'a secret, answered (no value kept)',
      secret,
      { outcome: 'answered', answers: [{ id: 'pw', selected: [], custom: 'hunter2' }] },
      true,
    ],
    [
      'an approval, decided',
      approval,
      { outcome: 'decided', decision: { behavior: 'deny', message: 'not on main' } },
      true,
    ],
    ['cancelled', ask, { outcome: 'cancelled' }, true],
    ['agent gone', ask, { outcome: 'agent-gone' }, true],
  ]
  it.each(cases)('the history line of %s is JSON.stringify of its entry', (_name, which, settlement, delivered) => {
    const line = historyLine(which, settlement, 1_700_000_999_000, delivered)
    expect(line).toBe(JSON.stringify(historyEntry(which, settlement, 1_700_000_999_000, delivered)))
    expect(line).not.toContain('hunter2')
  })
})
