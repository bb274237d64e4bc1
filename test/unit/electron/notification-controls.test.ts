// Which answer controls a notification gets, per ask shape and OS (issue 18; the table in docs/desktop.md).
import { describe, expect, it } from 'vitest'
import type { Ask } from '../../../shared'
import { controlsFor } from '../../../electron/main/notification-controls'
import type { Controls } from '../../../electron/main/notification-controls'
import { answerFor } from '../../../electron/main/notification-input'
import { truncate } from '../../../electron/main/notification-text'
import { parseActivation } from '../../../electron/main/windows-toast'
import { approvalAsk } from '../../helpers/ask-kinds'

const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `Option ${i + 1}` }))
const labels = (n: number) => options(n).map((o) => o.label)
const ask = (questions: unknown[], extra: Record<string, unknown> = {}): Ask =>
  ({ askId: 'a', kind: 'question', agent: { name: 'Claude Code' }, questions, receivedAt: 0, ...extra }) as Ask
const single = (n: number, extra: Record<string, unknown> = {}) => ({
  id: 'q',
  question: 'Proceed?',
  options: options(n),
  ...extra,
})
const free = (extra: Record<string, unknown> = {}) => ({ id: 'q', question: 'Branch name?', ...extra })

const buttons = (n: number): Controls => ({ kind: 'buttons', labels: labels(n) })
const reply: Controls = { kind: 'reply', question: 'Branch name?' }
const none = (reason: string): Controls => ({ kind: 'none', reason }) as Controls

// [shape, ask, macOS, Windows]; Linux is always { none: platform }.
const table: Array<[string, Ask, Controls, Controls]> = [
  ['one single-select question, 2 options', ask([single(2)]), buttons(2), buttons(2)],
  ['one single-select question, 5 options', ask([single(5)]), buttons(5), buttons(5)],
  ['one single-select question, 6 options', ask([single(6)]), none('too-many-options'), none('too-many-options')],
  ['multi-select', ask([single(3, { multi_select: true })]), none('multi-select'), none('multi-select')],
  ['one free-text question', ask([free()]), reply, reply],
  ['free text with empty options', ask([free({ options: [] })]), reply, reply],
  ['two questions', ask([single(2), free({ id: 'r' })]), none('several-questions'), none('several-questions')],
  ['options with a detail', ask([single(2, { detail: 'The plan' })]), none('detail'), none('detail')],
  ['free text with a detail', ask([free({ detail: 'Context' })]), none('detail'), none('detail')],
  [
    'a plan review (intent)',
    ask([single(2, { intent: { kind: 'plan-review', approve: 'Option 1' } })]),
    none('detail'),
    none('detail'),
  ],
  ['a secret free-text question', ask([free({ secret: true })]), none('secret'), none('secret')],
  ['a secret: false question', ask([free({ secret: false })]), reply, reply],
  [
    'an askpass ask (the companion-set mark)',
    ask([single(2)], { askpass: { receiver: 'ssh', verified: true } }),
    none('askpass'),
    none('askpass'),
  ],
  [
    'an unverified askpass mark',
    ask([single(2)], { askpass: { receiver: 'node', verified: false } }),
    none('askpass'),
    none('askpass'),
  ],
  // the name is the agent's own text: it changes nothing
  [
    'an agent calling itself ask-user-askpass',
    ask([single(2)], { agent: { name: 'ask-user-askpass' } }),
    buttons(2),
    buttons(2),
  ],
  [
    'an approval',
    approvalAsk({ tool: 'Bash', action: { kind: 'command', command: 'rm -rf build' } }),
    none('approval'),
    none('approval'),
  ],
  ['no questions', ask([]), none('several-questions'), none('several-questions')],
]

describe('controlsFor', () => {
  it.each(table)('%s', (_shape, value, mac, windows) => {
    expect(controlsFor(value, 'darwin')).toEqual(mac)
    expect(controlsFor(value, 'win32')).toEqual(windows)
    expect(controlsFor(value, 'linux')).toEqual(none('platform'))
    expect(controlsFor(value, 'freebsd')).toEqual(none('platform'))
  })
})

describe('answerFor', () => {
  const yesNo = ask([{ id: 'go', question: 'Proceed?', options: [{ label: 'Yes (Recommended)' }, { label: 'No' }] }])
  const controls = controlsFor(yesNo, 'darwin')
  it('picks the label verbatim, refuses an index never offered', () => {
    expect(answerFor(yesNo, controls, { kind: 'action', actionIndex: 0 })).toEqual({
      ok: true,
      answers: [{ id: 'go', selected: ['Yes (Recommended)'] }],
    })
    for (const actionIndex of [2, -1, 0.5, Number.NaN])
      expect(answerFor(yesNo, controls, { kind: 'action', actionIndex })).toEqual({
        ok: false,
        refusal: 'out-of-range',
      })
    expect(answerFor(yesNo, controls, { kind: 'reply', reply: 'x' })).toEqual({ ok: false, refusal: 'no-controls' })
  })
  it('trims a reply and refuses a blank one', () => {
    const text = ask([free()])
    expect(answerFor(text, reply, { kind: 'reply', reply: ' a b ' })).toEqual({
      ok: true,
      answers: [{ id: 'q', selected: [], custom: 'a b' }],
    })
    expect(answerFor(text, reply, { kind: 'reply', reply: ' \n\t ' })).toEqual({ ok: false, refusal: 'empty-reply' })
  })
})

describe('parseActivation (Windows)', () => {
  it('reads tag, button and reply as Electron splits them', () => {
    expect(parseActivation({ type: 'action', arguments: 'type=action&action=1&tag=au1n2', actionIndex: 1 })).toEqual({
      tag: 'au1n2',
      input: { kind: 'action', actionIndex: 1 },
    })
    expect(parseActivation({ type: '', arguments: 'type=action&action=3&tag=t' })).toEqual({
      tag: 't',
      input: { kind: 'action', actionIndex: 3 },
    })
    expect(parseActivation({ type: 'reply', arguments: 'type=reply&tag=t', userInputs: { reply: 'hi' } })).toEqual({
      tag: 't',
      input: { kind: 'reply', reply: 'hi' },
    })
    expect(parseActivation({ type: 'click', arguments: '' })).toEqual({ tag: undefined, input: undefined })
  })
})

describe('notification text cut', () => {
  it('cuts at a word boundary with an ellipsis, never inside a marker', () => {
    expect(truncate('Deploy the release candidate to production now', 20)).toBe('Deploy the release…')
    expect(truncate('a\n\n b   c', 120)).toBe('a b c')
    expect(truncate('x'.repeat(200), 120)).toBe('x'.repeat(119) + '…') // one long word: cut where it must
    const marked = truncate(`Proceed with ${'⟨U+202E⟩'.repeat(3)}`, 20)
    expect(marked).toBe('Proceed with…')
    const chinese = truncate('请问我们应该使用哪个数据库来存储用户的会话信息和缓存数据以及如何配置它们的备份策略', 20)
    expect(Array.from(chinese).length).toBeLessThanOrEqual(20)
    expect(chinese.endsWith('…')).toBe(true)
  })
})
