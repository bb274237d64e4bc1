// Answering from the notification itself (issue 18): the strict fake raises `action` / `reply` as macOS
// and Windows do, against the real core on port 0 with a real agent socket; the agent gets the
// canonical answer byte for byte, other windows get question/resolved, each activation answers once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../shared'
import type { Settings, UiServerFrame } from '../../../shared'
import type { Companion } from '../../../core'
import { NOTIFICATION_ARMING_MS, setupNotifications } from '../../../electron/main/notifications'
import { stringsFor } from '../../../electron/main/strings'
import { startTestCompanion } from '../../helpers/companion'
import type { TestCompanion } from '../../helpers/companion'
import { askFrame, helloAgent } from '../core/raw-agent'
import type { RawAgent } from '../core/raw-agent'
import { asElectron, FakeNotification, playPlatform, resetFakeElectron } from './fake-electron'
import { until } from './helpers'

let test: TestCompanion
let companion: Companion
let agent: RawAgent
/** Every text frame the agent received, exactly as sent. */
let raw: string[]
/** Frames of another window (the question window), attached to the same core. */
let windowFrames: UiServerFrame[]
let settings: Settings
let clicked: string[]
let opened: number
let stop: (() => void) | undefined
/** The notifications' clock (ms): `ask()` moves it past the arming time, the arming tests do not. */
let clockMs: number

const NO_LONGER = 'This question is no longer waiting. Nothing was sent.'
const YES_NO = {
  questions: [
    { id: 'go', header: 'Deploy', question: 'Proceed with **prod**?', options: [{ label: 'Yes' }, { label: 'No' }] },
  ],
}
const FREE = { questions: [{ id: 'name', question: 'Name the branch' }] }

function start(platform: 'darwin' | 'win32' | 'linux'): void {
  playPlatform(platform)
  stop = setupNotifications({
    Notification: asElectron(FakeNotification, 'typeof Notification'),
    companion,
    platform,
    settings: () => settings,
    strings: () => stringsFor('en', 'en-US'),
    windowFocused: () => false,
    shownAskId: () => undefined,
    onClick: (askId) => void clicked.push(askId),
    onOpen: () => void (opened += 1),
    now: () => clockMs,
  })
}

/** Sends an ask and waits for its notification; returns it, shown `NOTIFICATION_ARMING_MS` ago (unless `fresh`). */
async function ask(id: string, extra: Record<string, unknown>, fresh = false): Promise<FakeNotification> {
  const before = FakeNotification.instances.length
  agent.send(askFrame(id, extra))
  await until(() => FakeNotification.instances.length > before, `notification of ${id}`)
  if (!fresh) clockMs += NOTIFICATION_ARMING_MS
  return FakeNotification.instances.at(-1)!
}

const answersAtAgent = (): string[] => raw.filter((text) => text.includes('"type":"answer"'))
const resolvedInWindow = (): UiServerFrame[] => windowFrames.filter((frame) => frame.type === 'ask/settled')

beforeEach(async () => {
  resetFakeElectron()
  test = await startTestCompanion()
  companion = test.companion
  agent = await helloAgent(companion, 'Claude Code')
  raw = []
  agent.socket.on('message', (data) => void raw.push(String(data)))
  windowFrames = []
  companion.attachWindow((frame) => void windowFrames.push(frame))
  settings = { ...DEFAULT_SETTINGS }
  clicked = []
  opened = 0
  clockMs = 1_000_000
})

afterEach(async () => {
  stop?.()
  stop = undefined
  agent.socket.terminate()
  await test.cleanup()
})

describe.each(['darwin', 'win32'] as const)('on %s, a press too soon after the notification appeared', (platform) => {
  it('a button or reply within 600 ms of showing sends nothing and opens the window at the ask; later it answers', async () => {
    start(platform)
    const note = await ask('soon', YES_NO, true)
    clockMs += NOTIFICATION_ARMING_MS - 1
    note.pressButton(0)
    expect(clicked).toHaveLength(1) // the window opens at the ask (its card arms there)
    expect(answersAtAgent()).toEqual([])
    expect(companion.pending()).toHaveLength(1)
    expect(note.closed).toBe(false)
    expect(FakeNotification.instances).toHaveLength(1) // no follow-up: the window has it
    clockMs += 1
    note.pressButton(1)
    await until(() => answersAtAgent().length === 1, 'the answer at the agent')
    expect(answersAtAgent()).toEqual(['{"type":"answer","id":"soon","answers":[{"id":"go","selected":["No"]}]}'])
  })

  it('a reply within 600 ms of showing sends nothing either', async () => {
    start(platform)
    const note = await ask('soon-reply', FREE, true)
    note.sendReply('main')
    expect(clicked).toHaveLength(1)
    expect(answersAtAgent()).toEqual([])
    expect(companion.pending()).toHaveLength(1)
  })
})

describe.each(['darwin', 'win32'] as const)('on %s', (platform) => {
  it('a button answers the ask end to end, once: canonical answer at the agent, question/resolved in every window, the notification closed', async () => {
    start(platform)
    const note = await ask('a1', YES_NO)
    expect(note.options).toMatchObject({
      title: 'Claude Code',
      body: 'Deploy: Proceed with prod?',
      actions: [
        { type: 'button', text: 'Yes' },
        { type: 'button', text: 'No' },
      ],
    })
    expect(note.options.hasReply).toBeUndefined()
    note.pressButton(1)
    await until(() => answersAtAgent().length === 1, 'the answer at the agent')
    expect(answersAtAgent()).toEqual(['{"type":"answer","id":"a1","answers":[{"id":"go","selected":["No"]}]}'])
    await until(() => resolvedInWindow().length === 1, 'ask/settled')
    expect(resolvedInWindow()).toEqual([{ type: 'ask/settled', askId: expect.any(String), outcome: 'answered' }])
    expect(companion.pending()).toEqual([])
    expect(note.closed).toBe(true)
    if (platform === 'darwin') expect(FakeNotification.removed).toEqual([note.id])
    expect(FakeNotification.instances).toHaveLength(1) // no follow-up
  })

  it('a reply answers a free-text ask (trimmed, as the window does), once', async () => {
    start(platform)
    const note = await ask('r1', FREE)
    expect(note.options).toMatchObject({ hasReply: true, replyPlaceholder: 'Name the branch' })
    expect(note.options.actions).toBeUndefined()
    note.sendReply('  feature/notify-actions \n')
    await until(() => answersAtAgent().length === 1, 'the answer at the agent')
    expect(answersAtAgent()).toEqual([
      '{"type":"answer","id":"r1","answers":[{"id":"name","selected":[],"custom":"feature/notify-actions"}]}',
    ])
    await until(() => resolvedInWindow().length === 1, 'ask/settled')
    expect(note.closed).toBe(true)
  })

  it('an empty reply is refused: the ask stays pending, a follow-up says it is still waiting with the same reply box', async () => {
    start(platform)
    const note = await ask('r2', FREE)
    note.sendReply('   ')
    expect(FakeNotification.instances).toHaveLength(2)
    const followUp = FakeNotification.instances[1]!
    expect(followUp.options).toMatchObject({
      title: 'Claude Code',
      body: 'Still waiting (the reply was empty): Name the branch',
      hasReply: true,
      replyPlaceholder: 'Name the branch',
    })
    expect(companion.pending()).toHaveLength(1)
    // the follow-up answers like the first would have, once it has been on screen long enough
    clockMs += NOTIFICATION_ARMING_MS
    followUp.sendReply('main')
    await until(() => answersAtAgent().length === 1, 'the answer at the agent')
    expect(answersAtAgent()).toEqual([
      '{"type":"answer","id":"r2","answers":[{"id":"name","selected":[],"custom":"main"}]}',
    ])
    expect([note.closed, followUp.closed]).toEqual([true, true])
  })

  it('a button index that was never offered is refused: still waiting, the same buttons, nothing sent', async () => {
    start(platform)
    const note = await ask('a2', YES_NO)
    if (platform === 'darwin') note.pressButton(2)
    else
      FakeNotification.reportActivation({
        type: 'action',
        arguments: `type=action&action=2&tag=${note.id}`,
        actionIndex: 2,
        userInputs: {},
      })
    expect(FakeNotification.instances).toHaveLength(2)
    expect(FakeNotification.instances[1]!.options.actions).toEqual(note.options.actions)
    expect(companion.pending()).toHaveLength(1)
    expect(answersAtAgent()).toEqual([])
  })

  it('a second event for the same ask sends nothing more: "no longer waiting"', async () => {
    start(platform)
    const note = await ask('a3', YES_NO)
    note.pressButton(0)
    await until(() => answersAtAgent().length === 1, 'the first answer')
    note.pressButton(1)
    expect(FakeNotification.instances.map((n) => n.options.body)).toEqual(['Deploy: Proceed with prod?', NO_LONGER])
    expect(FakeNotification.instances[1]!.options.actions).toBeUndefined()
    // the agent saw exactly one answer, and nothing else after it
    await agent.next((frame) => frame.type === 'answer')
    expect(answersAtAgent()).toEqual(['{"type":"answer","id":"a3","answers":[{"id":"go","selected":["Yes"]}]}'])
  })

  it('an event for an ask the agent withdrew a moment earlier sends nothing: "no longer waiting"', async () => {
    start(platform)
    const note = await ask('a4', YES_NO)
    agent.send({ type: 'cancel', id: 'a4' })
    await until(() => note.closed, 'the notification closed as the ask was withdrawn')
    note.pressButton(0) // the person's click was already on its way
    expect(FakeNotification.instances.map((n) => n.options.body)).toEqual(['Deploy: Proceed with prod?', NO_LONGER])
    expect(answersAtAgent()).toEqual([])
  })

  it('closes the notification when its ask is answered in the window', async () => {
    start(platform)
    const note = await ask('a5', YES_NO)
    const askId = companion.pending()[0]!.askId
    const other = companion.attachWindow(() => undefined)
    other.receive({ type: 'ask/answer', askId, answers: [{ id: 'go', selected: ['Yes'] }] })
    expect(note.closed).toBe(true)
    if (platform === 'darwin') expect(FakeNotification.removed).toEqual([note.id])
    await until(() => answersAtAgent().length === 1, "the window's answer at the agent")
    note.pressButton(1) // a button that outlived its ask on screen
    expect(FakeNotification.instances.at(-1)!.options.body).toBe(NO_LONGER)
  })

  it('gives no controls to an ask the window must show (two questions) and a click opens it', async () => {
    start(platform)
    const note = await ask('m1', { questions: [YES_NO.questions[0], FREE.questions[0]] })
    expect(note.options.actions).toBeUndefined()
    expect(note.options.hasReply).toBeUndefined()
    expect(note.options.toastXml).toBeUndefined()
    note.clickBody()
    expect(clicked).toEqual([companion.pending()[0]!.askId])
  })
})

describe('Windows activations', () => {
  it('takes an activation reported twice (instance event and handleActivation) once, in either order, or through the callback alone', async () => {
    start('win32')
    const first = await ask('w1', YES_NO)
    first.pressButton(0, { order: 'handler-first' })
    const second = await ask('w2', YES_NO)
    second.pressButton(1, { order: 'instance-first' })
    const third = await ask('w3', FREE)
    third.sendReply('only the callback', { instance: false }) // the toast object is gone (it timed out into the Action Center)
    await until(() => answersAtAgent().length === 3, 'three answers')
    expect(answersAtAgent()).toEqual([
      '{"type":"answer","id":"w1","answers":[{"id":"go","selected":["Yes"]}]}',
      '{"type":"answer","id":"w2","answers":[{"id":"go","selected":["No"]}]}',
      '{"type":"answer","id":"w3","answers":[{"id":"name","selected":[],"custom":"only the callback"}]}',
    ])
    expect(FakeNotification.instances).toHaveLength(3) // no "no longer waiting" from the second report of one activation
  })

  it('keeps Electron\'s activation arguments and the input id "reply" in its toast XML', async () => {
    start('win32')
    const note = await ask('x1', FREE)
    expect(note.toastXml).toMatch(/^<toast launch="type=click&amp;tag=au[0-9a-f]{8}n1">/)
    expect(note.toastXml).toContain('<input id="reply" type="text" placeHolderContent="Name the branch"/>')
    expect(note.toastXml).toContain(
      `<action activationType="foreground" arguments="type=reply&amp;tag=${note.id}" content="Reply" hint-inputId="reply"/>`,
    )
    const buttons = await ask('x2', YES_NO)
    expect(buttons.toastXml).toContain(`arguments="type=action&amp;action=1&amp;tag=${buttons.id}" content="No"`)
  })

  it('an activation after a restart (a toast of the previous run) sends nothing: "no longer waiting"', async () => {
    // Windows holds the activation until the callback is registered: it is delivered at once then.
    FakeNotification.reportActivation({
      type: 'action',
      arguments: 'type=action&action=0&tag=au0badc0den3',
      actionIndex: 0,
      userInputs: {},
    })
    start('win32')
    expect(FakeNotification.instances.map((n) => n.options.body)).toEqual([NO_LONGER])
    await ask('after', YES_NO) // this run's ask is not answered by the old toast
    FakeNotification.reportActivation({
      type: 'reply',
      arguments: 'type=reply&tag=au0badc0den1',
      reply: 'late',
      userInputs: { reply: 'late' },
    })
    expect(FakeNotification.instances.at(-1)!.options.body).toBe(NO_LONGER)
    FakeNotification.reportActivation({ type: 'click', arguments: 'type=click&tag=au0badc0den1', userInputs: {} })
    expect(opened).toBe(1)
    expect(companion.pending()).toHaveLength(1)
    expect(answersAtAgent()).toEqual([])
  })
})

describe('which notifications get controls, and when', () => {
  it('shows a lone qualifying ask at once; asks that follow within the burst window are grouped without controls', async () => {
    start('darwin')
    const lone = await ask('b1', YES_NO)
    expect(lone.options.actions).toHaveLength(2)
    agent.send(askFrame('b2', YES_NO))
    agent.send(askFrame('b3', FREE))
    await until(() => FakeNotification.instances.length === 2, 'the grouped notification')
    const grouped = FakeNotification.instances[1]!
    expect(grouped.options).toMatchObject({ title: 'Ask User Companion', body: '2 questions from 1 agent' })
    expect(grouped.options.actions).toBeUndefined()
    expect(grouped.options.hasReply).toBeUndefined()
  })

  it('on Linux offers a click only, which opens the window at that ask', async () => {
    start('linux')
    agent.send(askFrame('l1', YES_NO))
    await until(() => FakeNotification.instances.length === 1, 'notification')
    const note = FakeNotification.instances[0]!
    expect(note.options).toEqual({ title: 'Claude Code', body: 'Deploy: Proceed with prod?', silent: false })
    expect(() => note.pressButton(0)).toThrow('libnotify gives a click only')
    note.clickBody()
    expect(clicked).toEqual([companion.pending()[0]!.askId])
  })

  it('under Do not disturb shows nothing, so no controls; the ask stays pending', async () => {
    settings = { ...settings, doNotDisturb: true }
    start('win32')
    agent.send(askFrame('d1', YES_NO))
    await until(() => companion.pending().length === 1, 'the ask')
    expect(FakeNotification.instances).toEqual([])
  })
})
