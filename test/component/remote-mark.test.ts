// A remote ask (`origin`, set by the companion's relay bridge) in the window: the "Remote" mark in the
// list row and the card header, the reason a remote secret ask cannot be answered here, and a card
// answered on another desk of the person saying where. A local ask has no mark.
import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeApproval, makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

const REMOTE = { kind: 'relay' as const, agentId: 'agent-1' }

describe('remote asks in the window', () => {
  it('marks a remote ask in its list row and card header; a local ask has no mark', async () => {
    const { user } = await renderInbox([
      makeAsk({ askId: 'r1', agent: { name: 'ci-job' }, origin: REMOTE }),
      makeAsk({ askId: 'l1', receivedAt: Date.now() }),
    ])
    const rows = screen.getAllByTestId('ask-item')
    const row = (askId: string) => rows.find((item) => item.dataset.askId === askId)!
    expect(within(row('r1')).getByTestId('remote-mark').textContent).toBe('Remote')
    expect(within(row('l1')).queryByTestId('remote-mark')).toBeNull()
    await user.click(row('r1'))
    const card = screen.getByTestId('ask-view')
    expect(card.dataset.askId).toBe('r1')
    expect(within(card).getByTestId('remote-mark').getAttribute('title')).toBe(
      'Asked through the relay by an agent on another machine, under the name the relay gave it.',
    )
    expect(within(card).queryByTestId('remote-refused')).toBeNull()
  })

  it('says in the card why a remote secret ask cannot be answered here', async () => {
    await renderInbox([
      makeAsk({
        askId: 'r2',
        agent: { name: 'ci-job' },
        questions: [{ id: 'pw', question: 'Password?', secret: true }],
        origin: { ...REMOTE, unanswerable: 'from the core' },
      }),
    ])
    expect(screen.getByTestId('remote-refused').textContent).toBe(
      'Remote passwords are not allowed for ci-job on this desk. To answer it here, run: ask-user relay passwords allow ci-job',
    )
  })

  it('on the phone, says the desktop allows passwords for this phone, not a command to run here', async () => {
    await renderInbox(
      [
        makeAsk({
          askId: 'r6',
          agent: { name: 'ci-job' },
          questions: [{ id: 'pw', question: 'Password?', secret: true }],
          origin: { ...REMOTE, unanswerable: 'from the bridge' },
        }),
      ],
      { overRelay: true },
    )
    expect(screen.getByTestId('remote-refused').textContent).toBe(
      'This phone may not answer passwords of ci-job. To allow it, turn on “Allow passwords from this agent” and “Also on” this phone in the desktop’s Relay view, or answer it on the desktop.',
    )
  })

  it('a remote secret ask sent again once allowed here becomes answerable in place, and refused again once denied', async () => {
    const refused = makeAsk({
      askId: 'r5',
      agent: { name: 'ci-job' },
      questions: [{ id: 'pw', question: 'Password?', secret: true }],
      origin: { ...REMOTE, unanswerable: 'from the core' },
    })
    const { bridge } = await renderInbox([refused])
    expect(screen.getByTestId('remote-refused')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /send/i })).toBeNull()
    await bridge.emit({ type: 'ask/added', ask: { ...refused, origin: REMOTE } })
    expect(screen.queryByTestId('remote-refused')).toBeNull()
    expect(screen.getByRole('button', { name: /send/i })).toBeTruthy()
    expect(screen.getAllByTestId('ask-item')).toHaveLength(1)
    await bridge.emit({ type: 'ask/added', ask: refused })
    expect(screen.getByTestId('remote-refused')).toBeTruthy()
  })

  it('a remote ask answered on another desk says which one', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'r3', origin: REMOTE })])
    await user.type(screen.getByRole('textbox'), 'half an answer')
    await bridge.emit({ type: 'ask/settled', askId: 'r3', outcome: 'answered', answeredOn: 'laptop-b' })
    expect(screen.getByTestId('settled-notice').textContent).toContain('Answered on laptop-b.')
  })

  it('a mirrored approval decided on another desk says which one', async () => {
    const request = { tool: 'Bash', action: { kind: 'command' as const, command: 'npm test' } }
    const { bridge } = await renderInbox([makeApproval(request, { askId: 'r5' })])
    await bridge.emit({
      type: 'ask/settled',
      askId: 'r5',
      outcome: 'decided',
      decision: { behavior: 'allow' },
      answeredOn: 'laptop-b',
    })
    expect(screen.getByTestId('settled-notice').textContent).toContain('Decided on laptop-b.')
  })

  it("another desktop's mirrored approval: marked Remote, allow once and deny only, no Dismiss (nor on Esc)", async () => {
    const request = {
      tool: 'Bash',
      action: { kind: 'command' as const, command: 'npm publish' },
      always: { label: 'Bash(npm publish:*) in this project' },
    }
    const { user } = await renderInbox([
      makeApproval(request, { askId: 'r6', agent: { name: 'claude on office' }, origin: REMOTE }),
    ])
    const card = screen.getByTestId('approval-card')
    expect(within(card).getByTestId('remote-mark').textContent).toBe('Remote')
    expect(within(card).getByRole('button', { name: 'Allow once' })).toBeTruthy()
    expect(within(card).getByRole('button', { name: /^Deny/ })).toBeTruthy()
    expect(within(card).queryByRole('button', { name: /Always allow/ })).toBeNull()
    expect(within(card).queryByRole('button', { name: 'Dismiss' })).toBeNull()
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('dismiss-confirm')).toBeNull()
  })

  it('a remote ask that expired says so', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'r4', origin: REMOTE })])
    await user.type(screen.getByRole('textbox'), 'draft')
    await bridge.emit({ type: 'ask/settled', askId: 'r4', outcome: 'expired' })
    expect(screen.getByTestId('settled-notice').textContent).toContain('This question expired before anyone answered.')
  })

  it('says "agent unreachable since …" in the row and the card while the agent’s presence has lapsed, keeps the form, and drops it when the agent is back', async () => {
    const since = new Date(2026, 11, 4, 16, 20).getTime()
    const { bridge } = await renderInbox([makeAsk({ askId: 'r5', origin: { ...REMOTE, unreachableSince: since } })])
    const time = new Date(since).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })
    const row = screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'r5')!
    const card = screen.getByTestId('ask-view')
    for (const place of [row, card])
      expect(within(place).getByTestId('agent-unreachable').textContent).toBe(`Agent unreachable since ${time}`)
    expect(within(card).getByTestId('agent-unreachable').getAttribute('title')).toBe(
      `Nothing from this agent through the relay since ${time}. The ask stays answerable: your answer waits on the relay until the agent is back.`,
    )
    expect(within(card).getByRole('textbox')).toBeTruthy()
    await bridge.emit({ type: 'ask/origin', askId: 'r5', origin: REMOTE })
    expect(screen.queryByTestId('agent-unreachable')).toBeNull()
    await bridge.emit({ type: 'ask/origin', askId: 'r5', origin: { ...REMOTE, unreachableSince: since } })
    expect(screen.getAllByTestId('agent-unreachable')).toHaveLength(2)
  })
})
