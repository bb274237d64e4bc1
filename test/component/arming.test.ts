// A click or key acts on the card the person saw: cards shown without their click arm first, and
// arrivals never change the card on screen (the original attack: another agent's approval arriving
// ~50 ms before a click on "Allow once").
import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import type { Ask } from '../../shared/ask'
import { makeApproval, makeAsk } from './fake-bridge'
import { ManualClock } from './manual-clock'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const approval = (askId: string, agentName: string, command: string, receivedAt: number): Ask =>
  makeApproval(
    { tool: 'Bash', action: { kind: 'command', command } },
    { askId, agent: { name: agentName, pid: agentName.length }, receivedAt },
  )

/** Renders with arming on (600 ms) and a clock the test drives. */
async function renderArming(pending: Ask[]) {
  const clock = new ManualClock()
  const rendered = await renderInbox(pending, { armingMs: 600, quietMs: 1000, clock })
  return { ...rendered, clock }
}

const shownId = () => (screen.queryByTestId('approval-card') ?? screen.getByTestId('ask-view')).dataset.askId
const allowOnce = () => within(screen.getByTestId('approval-card')).getByRole('button', { name: 'Allow once' })

describe('arming', () => {
  it('an approval arriving just before a click: the card on screen stays, the new one is a cue, the click decides only the card that was there', async () => {
    const now = Date.now()
    const { bridge, user, clock } = await renderArming([approval('A', 'claude-code', 'npm test', now - 5000)])
    await clock.frame()
    await clock.advance(600)
    // Another agent's approval, which sorts above A (it has waited longer, e.g. it was held up on the
    // way), arrives ~50 ms before the click.
    await bridge.emit({ type: 'ask/added', ask: approval('B', 'codex', 'rm -rf ~', now - 10_000) })
    await clock.advance(50)
    expect(screen.getAllByTestId('ask-item').map((item) => item.dataset.askId)).toEqual(['B', 'A'])
    expect(shownId()).toBe('A')
    const cue = screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'B')!
    expect(cue.dataset.unseen).toBe('true')
    expect(within(cue).getByTestId('new-cue').textContent).toBe('New')
    await user.click(allowOnce())
    expect(bridge.decided).toEqual([{ askId: 'A', decision: { behavior: 'allow' } }])
  })

  it('a card that arrives is armed 600 ms after its first frame; until then its decisions do nothing and say why', async () => {
    const { bridge, user, clock } = await renderArming([])
    await bridge.emit({ type: 'ask/added', ask: approval('B', 'codex', 'rm -rf ~', Date.now()) })
    expect(allowOnce().getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByTestId('arming').textContent).toBe('Just arrived: its buttons work in a moment')
    expect(allowOnce().getAttribute('aria-describedby')).toBe(screen.getByTestId('arming').id)
    await user.click(allowOnce())
    await user.click(within(screen.getByTestId('approval-card')).getByRole('button', { name: /Deny/ }))
    await user.keyboard('{Control>}{Enter}{/Control}')
    await user.keyboard('{Escape}')
    // Counted from the frame, not from the mount: 600 ms without a frame is still arming.
    await clock.advance(600)
    await user.click(allowOnce())
    expect(bridge.decided).toEqual([])
    await clock.frame()
    await clock.advance(599)
    await user.click(allowOnce())
    expect(bridge.decided).toEqual([])
    await clock.advance(1)
    expect(allowOnce().hasAttribute('aria-disabled')).toBe(false)
    expect(screen.queryByTestId('arming')).toBeNull()
    await user.click(allowOnce())
    expect(bridge.decided).toEqual([{ askId: 'B', decision: { behavior: 'allow' } }])
  })

  it('says it is arming in Chinese too', async () => {
    const { bridge } = await renderArming([])
    i18n.lang = 'zh'
    await bridge.emit({ type: 'ask/added', ask: makeAsk({ askId: 'Q' }) })
    expect(screen.getByTestId('arming').textContent).toBe('刚刚出现：按钮稍后即可使用')
    i18n.lang = 'en'
  })

  it('a question card swallows option clicks, digits and Enter while arming', async () => {
    const { bridge, user, clock, store } = await renderArming([makeAsk({ askId: 'Q' })])
    await user.click(screen.getByRole('radio', { name: /^npm/ }))
    screen.getAllByRole('radio')[0]!.focus()
    await user.keyboard('2')
    await user.keyboard('{Enter}')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(store.card('Q')?.hasDraft).toBe(false)
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^npm/ }).checked).toBe(false)
    expect(bridge.answered).toEqual([])
    await clock.frame()
    await clock.advance(600)
    await user.click(screen.getByRole('radio', { name: /^npm/ }))
    await user.keyboard('{Enter}')
    expect(bridge.answered).toEqual([{ askId: 'Q', answers: [{ id: 'pkg', selected: ['npm'] }] }])
  })

  it('a card the person clicks in the list acts at once; one a notification asks for arms', async () => {
    const now = Date.now()
    const { bridge, user } = await renderArming([
      approval('A', 'claude-code', 'ls', now - 1000),
      approval('B', 'codex', 'pwd', now - 2000),
    ])
    await user.click(screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'A')!)
    await user.click(allowOnce())
    expect(bridge.decided).toEqual([{ askId: 'A', decision: { behavior: 'allow' } }])
    await bridge.emit({ type: 'ask/accepted', askId: 'A', outcome: 'answered' })
    await bridge.emit({ type: 'ask/added', ask: approval('C', 'gemini', 'whoami', now) })
    await bridge.focusAsk('C')
    expect(shownId()).toBe('C')
    await user.click(allowOnce())
    expect(bridge.decided).toHaveLength(1)
  })

  it('a double Enter across auto-advance sends one answer', async () => {
    const { bridge, user, clock } = await renderArming([makeAsk({ askId: 'A' }), makeAsk({ askId: 'B' })])
    const row = (askId: string) => screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === askId)!
    // B already holds a complete draft; then the person answers A.
    await user.click(row('B'))
    await user.click(screen.getByRole('radio', { name: 'yarn' }))
    await user.click(row('A'))
    await user.click(screen.getByRole('radio', { name: /^npm/ }))
    await user.keyboard('{Enter}')
    expect(bridge.answered.map((sent) => sent.askId)).toEqual(['A'])
    await bridge.emit({ type: 'ask/accepted', askId: 'A', outcome: 'answered' })
    expect(shownId()).toBe('B')
    // The second Enter of the double press lands on B, which the person has not seen yet.
    await user.keyboard('{Enter}')
    expect(bridge.answered.map((sent) => sent.askId)).toEqual(['A'])
    await clock.frame()
    await clock.advance(600)
    await user.keyboard('{Enter}')
    expect(bridge.answered.map((sent) => sent.askId)).toEqual(['A', 'B'])
  })
})

describe('the card on screen holds', () => {
  it('a settled card says so for lingerMs on the view clock, then leaves only once focus and pointer are off it and 1 s after the last input', async () => {
    const { bridge, user, clock } = await renderArming([makeAsk({ askId: 'S' }), makeAsk({ askId: 'T' })])
    const card = screen.getByTestId('ask-view')
    await user.hover(card)
    await user.click(screen.getByRole('textbox'))
    await bridge.emit({ type: 'ask/settled', askId: 'S', outcome: 'aborted' })
    expect(screen.getByTestId('settled-notice')).toBeTruthy()
    await clock.advance(2499)
    expect(shownId()).toBe('S') // still saying how it ended
    await clock.advance(1) // lingerMs (2500) is up: now the hold decides
    expect(shownId()).toBe('S')
    await user.keyboard('{Shift}') // an input in the card: the quiet second starts again
    ;(document.activeElement as HTMLElement).blur()
    await clock.advance(0)
    expect(shownId()).toBe('S') // the pointer is still over it
    await user.unhover(card)
    await clock.advance(0)
    expect(shownId()).toBe('S') // less than 1 s since the last input
    await clock.advance(999)
    expect(shownId()).toBe('S')
    await clock.advance(1)
    expect(shownId()).toBe('T')
  })
})
