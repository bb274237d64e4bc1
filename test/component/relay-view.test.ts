// The "Relay" view in the window: its tab only once the companion sends `relay/state`; the link, this desk,
// the roster (and its 7-day warning), the devices and agents in plain words, in English and Chinese; the
// served page read-only with one line saying where changes are made; the commands that change what.
import { cleanup, render, screen, within } from '@testing-library/svelte'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import App from '../../renderer/src/App.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { formatTime } from '../../renderer/src/lib/format'
import { loadSideViews } from '../../renderer/src/lib/side-views.svelte'
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
  mirrorLocalAsks: false,
}

async function renderWindow(options: { desktop: boolean; lang?: 'en' | 'zh' }) {
  i18n.lang = options.lang ?? 'en'
  await loadSideViews() // as the window's main.ts does
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
    // Nothing in the view changes the relay (though this bridge could): no button, no switch at all.
    expect(within(screen.getByTestId('relay-view')).queryAllByRole('button')).toEqual([])
    expect(within(screen.getByTestId('relay-view')).queryAllByRole('switch')).toEqual([])
  })

  it('in the desktop window: no read-only line, the same commands', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    expect(screen.queryByTestId('relay-read-only')).toBeNull()
    expect(text('relay-commands')).toContain('ask-user relay pair')
  })

  it('in the desktop window: the mirror switch sends the change and shows what relay/state then says', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    const mirror = screen.getByRole('switch', { name: 'Mirror local asks' })
    expect(mirror.getAttribute('aria-checked')).toBe('false')
    expect(text('relay-mirror-hint')).toBe(
      "Other desks can answer the non-secret questions of this desktop's local agents; password questions stay here.",
    )
    await user.click(mirror)
    expect(bridge.relayChanges).toEqual([{ type: 'relay/mirror-local', on: true }])
    // The switch follows the companion's state, not the click.
    expect(mirror.getAttribute('aria-checked')).toBe('false')
    await bridge.emit({ type: 'relay/state', state: { ...STATE, mirrorLocalAsks: true } })
    expect(mirror.getAttribute('aria-checked')).toBe('true')
    await user.click(mirror)
    expect(bridge.relayChanges.at(-1)).toEqual({ type: 'relay/mirror-local', on: false })
  })

  it('"Allow passwords from this agent" asks first and says what it means; turning it off does not', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    const switches = (): HTMLElement[] => screen.getAllByRole('switch', { name: 'Allow passwords from this agent' })
    expect(switches().map((item) => item.getAttribute('aria-checked'))).toEqual(['false', 'false'])
    await user.click(switches()[0]!)
    const dialog = within(screen.getByTestId('relay-passwords-confirm'))
    expect(dialog.getByText('Allow password questions from ci-job on this desk?')).toBeTruthy()
    expect(text('relay-passwords-confirm')).toContain(
      'This desk will show the password questions ci-job asks through the relay, and you can answer them here. Your answer is sealed to that agent alone and kept on the relay for at most 10 minutes; the relay cannot read it. Your other desks are not changed.',
    )
    await user.click(dialog.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByTestId('relay-passwords-confirm')).toBeNull()
    expect(bridge.relayChanges).toEqual([])
    await user.click(switches()[0]!)
    await user.click(screen.getByTestId('relay-passwords-yes'))
    expect(bridge.relayChanges).toEqual([{ type: 'relay/remote-passwords', agent: 'ci-job', allow: true }])
    const allowed: RelayState = { ...STATE, agents: [{ name: 'ci-job', passwordsAllowed: true }, { name: 'sandbox' }] }
    await bridge.emit({ type: 'relay/state', state: allowed })
    expect(switches().map((item) => item.getAttribute('aria-checked'))).toEqual(['true', 'false'])
    await user.click(switches()[0]!)
    expect(screen.queryByTestId('relay-passwords-confirm')).toBeNull()
    expect(bridge.relayChanges.at(-1)).toEqual({ type: 'relay/remote-passwords', agent: 'ci-job', allow: false })
  })

  it('"Also on laptop-b" under an allowed agent: asks first, names the phone, and turning it off does not ask', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    // Not allowed on this desk: no phone switch yet.
    expect(screen.queryByTestId('relay-passwords-phone-switch')).toBeNull()
    const allowed: RelayState = { ...STATE, agents: [{ name: 'ci-job', passwordsAllowed: true }, { name: 'sandbox' }] }
    await bridge.emit({ type: 'relay/state', state: allowed })
    const phone = (): HTMLElement => screen.getByRole('switch', { name: 'Also on laptop-b' })
    expect(phone().getAttribute('aria-checked')).toBe('false')
    await user.click(phone())
    expect(text('relay-passwords-confirm')).toContain(
      'laptop-b will be able to answer the password questions ci-job asks through the relay. This setting is sealed to that phone alone',
    )
    expect(bridge.relayChanges).toEqual([])
    await user.click(screen.getByTestId('relay-passwords-yes'))
    expect(bridge.relayChanges).toEqual([
      { type: 'relay/remote-passwords', agent: 'ci-job', allow: true, on: 'laptop-b' },
    ])
    const onPhone: RelayState = {
      ...STATE,
      agents: [{ name: 'ci-job', passwordsAllowed: true, passwordsOnDevices: ['laptop-b'] }, { name: 'sandbox' }],
    }
    await bridge.emit({ type: 'relay/state', state: onPhone })
    expect(phone().getAttribute('aria-checked')).toBe('true')
    await user.click(phone())
    expect(screen.queryByTestId('relay-passwords-confirm')).toBeNull()
    expect(bridge.relayChanges.at(-1)).toEqual({
      type: 'relay/remote-passwords',
      agent: 'ci-job',
      allow: false,
      on: 'laptop-b',
    })
    // Only the first desktop writes a phone's setting.
    await bridge.emit({ type: 'relay/state', state: { ...onPhone, desk: { name: 'laptop-b', role: 'device' } } })
    expect(screen.queryByTestId('relay-passwords-phone-switch')).toBeNull()
  })

  it('"Remove" on each other device, after a confirmation that says what removal does', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    const [self, laptop] = screen.getAllByTestId('relay-device')
    expect(within(self!).queryByTestId('relay-remove')).toBeNull()
    await user.click(within(laptop!).getByRole('button', { name: 'Remove' }))
    expect(text('relay-remove-confirm')).toBe(
      'Remove laptop-b? laptop-b can answer nothing from then on: the roster is signed again without it and its relay credential is revoked. To use it again, pair it anew. Cancel Remove laptop-b',
    )
    await user.keyboard('{Escape}')
    expect(bridge.relayChanges).toEqual([])
    await user.click(within(laptop!).getByRole('button', { name: 'Remove' }))
    await user.click(screen.getByTestId('relay-remove-yes'))
    expect(bridge.relayChanges).toEqual([{ type: 'devices/remove', name: 'laptop-b' }])
  })

  it('a refused change is said in a sentence: the relay unreachable, a roster conflict, any other refusal', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    bridge.relayRefusals.push(
      { code: 'RELAY_UNREACHABLE', message: 'The relay could not be reached (ECONNREFUSED); nothing was changed.' },
      { code: 'RELAY_ROSTER_CONFLICT', message: 'Another change to the roster was published…' },
      { code: 'RELAY_MIRROR_NEEDS_DESKTOP', message: 'Only the first desktop can mirror its local asks.' },
    )
    const remove = async (): Promise<void> => {
      await user.click(within(screen.getAllByTestId('relay-device')[1]!).getByRole('button', { name: 'Remove' }))
      await user.click(screen.getByTestId('relay-remove-yes'))
    }
    await remove()
    expect(text('relay-change-refused')).toBe(
      'The relay could not be reached, so nothing was changed. Check that it runs, then try again.',
    )
    expect(screen.getByTestId('relay-change-refused').getAttribute('role')).toBe('alert')
    await remove()
    expect(text('relay-change-refused')).toBe(
      'Another change to the roster was made at the same moment, so nothing was changed. Try again.',
    )
    await user.click(screen.getByRole('switch', { name: 'Mirror local asks' }))
    expect(text('relay-change-refused')).toBe('Not changed: Only the first desktop can mirror its local asks.')
    await user.click(screen.getByRole('switch', { name: 'Mirror local asks' }))
    expect(screen.queryByTestId('relay-change-refused')).toBeNull()
  })

  it('on a paired device: the passwords switch only (no mirroring, no removal there)', async () => {
    const { bridge, user } = await renderWindow({ desktop: true })
    const { mirrorLocalAsks: _none, ...rest } = STATE
    await bridge.emit({ type: 'relay/state', state: { ...rest, desk: { name: 'laptop-b', role: 'device' } } })
    await user.click(screen.getByTestId('relay-tab'))
    expect(screen.queryByRole('switch', { name: 'Mirror local asks' })).toBeNull()
    expect(screen.queryAllByTestId('relay-remove')).toEqual([])
    expect(screen.getAllByRole('switch', { name: 'Allow passwords from this agent' })).toHaveLength(2)
  })

  it('the controls and their sentences in Chinese', async () => {
    const { bridge, user } = await renderWindow({ desktop: true, lang: 'zh' })
    await bridge.emit({ type: 'relay/state', state: STATE })
    await user.click(screen.getByTestId('relay-tab'))
    expect(screen.getByRole('switch', { name: '镜像本机提问' })).toBeTruthy()
    await user.click(screen.getAllByRole('switch', { name: '允许此智能体询问密码' })[0]!)
    expect(text('relay-passwords-confirm')).toContain('允许 ci-job 在此桌面询问密码？')
    await user.click(screen.getByRole('button', { name: '取消' }))
    bridge.relayRefusals.push({ code: 'RELAY_ROSTER_CONFLICT', message: '…' })
    await user.click(within(screen.getAllByTestId('relay-device')[1]!).getByRole('button', { name: '移除' }))
    expect(text('relay-remove-confirm')).toContain('移除 laptop-b？')
    await user.click(screen.getByTestId('relay-remove-yes'))
    expect(text('relay-change-refused')).toBe('同一时刻成员名单有另一项更改，因此没有做任何更改。请重试。')
    i18n.lang = 'en'
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
