// The "Relay" view in the window: its tab only once the companion sends `relay/state`; the link, this desk,
// the roster (and its 7-day warning), the devices and agents in plain words, in English and Chinese; the
// served page read-only with one line saying where changes are made; the commands that change what.
import { cleanup, render, screen, within } from '@testing-library/svelte'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import App from '../../renderer/src/App.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { formatTime } from '../../renderer/src/lib/format'
import { InboxStore } from '../../renderer/src/state/inbox.svelte'
import type { RelayState } from '../../shared/relay-state'
import { FakeBridge } from './fake-bridge'

afterEach(cleanup)

const DAY = 24 * 3_600_000
const NOW = Date.UTC(2026, 11, 4, 9, 30)

const STATE: RelayState = {
  configured: true,
  link: { state: 'connected', since: NOW - 3_600_000 },
  desk: { name: 'studio', role: 'desktop' },
  roster: { version: 4, expiresAt: NOW + 59 * DAY, expiresSoon: false },
  devices: [
    { name: 'studio', role: 'desktop', suite: 'x25519-ed25519', self: true },
    { name: 'laptop-b', role: 'device', suite: 'x25519-ed25519', pairedAt: NOW - 2 * DAY },
  ],
  agents: [{ name: 'ci-job', lastContactAt: NOW - 60_000 }, { name: 'sandbox' }],
  pendingRemote: 2,
}

async function renderWindow(options: { desktop: boolean; lang?: 'en' | 'zh' }) {
  i18n.lang = options.lang ?? 'en'
  const bridge = new FakeBridge()
  const store = new InboxStore(bridge, { storage: window.sessionStorage, armingMs: 0 })
  render(App, { props: { store, desktop: options.desktop } })
  await bridge.snapshot([])
  return { bridge, user: userEvent.setup() }
}

const text = (testId: string): string => screen.getByTestId(testId).textContent!.replace(/\s+/g, ' ').trim()

describe('the Relay view', () => {
  it('has no tab until the companion sends a relay state', async () => {
    const { bridge } = await renderWindow({ desktop: false })
    expect(screen.queryByTestId('relay-tab')).toBeNull()
    await bridge.emit({ type: 'relay/state', state: STATE })
    expect(screen.getByTestId('relay-tab').textContent!.trim()).toBe('Relay')
  })

  it('in the served page: the state in plain words, read-only, and the commands that change what', async () => {
    const { bridge, user } = await renderWindow({ desktop: false })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    expect(text('relay-read-only')).toBe(
      'Read-only here. Changes are made with `ask-user relay …` in a terminal or in the desktop window.',
    )
    expect(text('relay-link')).toBe(`Connected since ${formatTime(NOW - 3_600_000, 'en')}`)
    expect(text('relay-desk')).toBe('This desk: studio, first desktop')
    expect(text('relay-roster')).toBe(`Roster version 4, valid until ${formatTime(NOW + 59 * DAY, 'en')}`)
    expect(screen.queryByTestId('relay-roster-warning')).toBeNull()
    expect(text('relay-pending')).toBe('Remote asks pending: 2')
    const devices = screen.getAllByTestId('relay-device').map((item) => item.textContent!.replace(/\s+/g, ' ').trim())
    expect(devices).toEqual([
      'studio this desk first desktop · x25519-ed25519',
      `laptop-b paired device · x25519-ed25519 · paired ${formatTime(NOW - 2 * DAY, 'en')}`,
    ])
    const agents = screen.getAllByTestId('relay-agent').map((item) => item.textContent!.replace(/\s+/g, ' ').trim())
    expect(agents).toEqual([
      `ci-job last contact ${formatTime(NOW - 60_000, 'en')}`,
      'sandbox no contact since the companion started',
    ])
    const commands = within(screen.getByTestId('relay-commands'))
    expect(commands.getByText('ask-user relay pair')).toBeTruthy()
    expect(commands.getByText('ask-user relay remove NAME')).toBeTruthy()
    expect(commands.getByText('ask-user relay add-agent NAME')).toBeTruthy()
    // Nothing in the view changes the relay: no button besides the window's own tabs and controls.
    expect(within(screen.getByTestId('relay-view')).queryAllByRole('button')).toEqual([])
  })

  it('in the desktop window: no read-only line, the same commands', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    expect(screen.queryByTestId('relay-read-only')).toBeNull()
    expect(text('relay-commands')).toContain('ask-user relay pair')
  })

  it('follows changes: unreachable since T, stopped with the reason, the roster warning', async () => {
    const { bridge, user } = await renderWindow({ desktop: false })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    await bridge.emit({
      type: 'relay/state',
      state: {
        ...STATE,
        link: { state: 'unreachable', since: NOW },
        roster: { version: 4, expiresAt: NOW + 3 * DAY, expiresSoon: true },
      },
    })
    expect(text('relay-link')).toBe(`Unreachable since ${formatTime(NOW, 'en')}; retrying. Remote asks stay listed.`)
    expect(screen.getByTestId('relay-link').dataset.state).toBe('unreachable')
    expect(text('relay-roster-warning')).toBe(
      'The roster expires within 7 days: start the desktop companion, or run `ask-user relay renew` on the first desktop.',
    )
    await bridge.emit({
      type: 'relay/state',
      state: { ...STATE, link: { state: 'stopped', reason: 'credential refused' } },
    })
    expect(text('relay-link')).toBe('Stopped: credential refused')
  })

  it("an agent's credential expiry: plain, then the warning look under 24 hours or past", async () => {
    const { bridge, user } = await renderWindow({ desktop: false })
    const withExpiry = (credentialExpiresSoon: boolean): RelayState => ({
      ...STATE,
      agents: [{ name: 'ci-job', credentialExpiresAt: NOW + 5 * DAY, credentialExpiresSoon }, { name: 'sandbox' }],
    })
    await bridge.emit({ type: 'relay/state', state: withExpiry(false) })
    await user.click(screen.getByTestId('relay-tab'))
    const line = (): HTMLElement => screen.getByTestId('relay-agent-credential')
    expect(text('relay-agent-credential')).toBe(`credential expires ${formatTime(NOW + 5 * DAY, 'en')}`)
    expect(line().classList.contains('warn')).toBe(false)
    expect(line().getAttribute('role')).toBeNull()
    // Only the agent with a recorded expiry has the line.
    expect(within(screen.getAllByTestId('relay-agent')[1]!).queryByTestId('relay-agent-credential')).toBeNull()
    await bridge.emit({ type: 'relay/state', state: withExpiry(true) })
    expect(line().classList.contains('warn')).toBe(true)
    expect(line().getAttribute('role')).toBe('alert')
    expect(line().dataset.expiresSoon).toBe('true')
  })

  it('in Chinese', async () => {
    const { bridge, user } = await renderWindow({ desktop: false, lang: 'zh' })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    expect(screen.getByTestId('relay-tab').textContent!.trim()).toBe('中继')
    expect(text('relay-read-only')).toBe('此处只读。请在终端中使用 `ask-user relay …` 或在桌面窗口中更改。')
    expect(text('relay-link')).toBe(`自 ${formatTime(NOW - 3_600_000, 'zh')} 起已连接`)
    expect(text('relay-desk')).toBe('本机：studio，首台桌面')
    expect(text('relay-pending')).toBe('待处理的远程提问：2')
    expect(screen.getAllByTestId('relay-agent')[1]!.textContent).toContain('助手启动以来没有联系')
    i18n.lang = 'en'
  })

  it('a reconnect shows the inbox until the relay state follows; without a relay the tab goes', async () => {
    const { bridge, user } = await renderWindow({ desktop: false })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    expect(screen.getByTestId('relay-view')).toBeTruthy()
    await bridge.snapshot([])
    expect(screen.queryByTestId('relay-tab')).toBeNull()
    expect(screen.queryByTestId('relay-view')).toBeNull()
    expect(screen.getByTestId('empty-inbox')).toBeTruthy()
    await bridge.emit({ type: 'relay/state', state: STATE })
    expect(screen.getByTestId('relay-view')).toBeTruthy()
  })
})
