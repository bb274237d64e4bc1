// Changing the relay from the desktop window's Relay view: the whole main-process wiring (desktop.ts) against
// the strict fake `electron`, the real core and, where the relay is reached, a real nats-server set up as a
// person does (relay-desks.ts). A change travels on `companion:relay-change`, is parsed in main, applied
// through the same relay/home functions as `ask-user relay …`, answered on `companion:relay-change-result`,
// and the window sees it in the next `relay/state`.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Desktop } from '../../../electron/main/desktop'
import { mirrorLocalAsks } from '../../../relay/home/mirror-setting'
import { loadRemotePasswords } from '../../../relay/home/remote-passwords'
import { loadRenewals } from '../../../relay/home/state'
import { IPC_CHANNELS, type RelayChangeResult } from '../../../shared/ipc'
import type { RelayState } from '../../../shared/relay-state'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { setUpRelayDesks, type RelayDesks } from '../core/relay-desks'
import { fake, FakeBrowserWindow, FakeFrame, ipcEvent, resetFakeElectron } from './fake-electron'
import { tempHome, until } from './helpers'
import { startLinuxDesktop } from './start-desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronMock())

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the relay changes against a relay: ${skip}`)

let desktop: Desktop | undefined
const warnings: string[] = []

async function start(home: string): Promise<Desktop> {
  desktop = await startLinuxDesktop(home, warnings)
  fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(win().webContents))
  return desktop
}

const win = (): FakeBrowserWindow => FakeBrowserWindow.instances[0]!
const results = (): RelayChangeResult[] => win().webContents.on_(IPC_CHANNELS.relayChangeResult) as RelayChangeResult[]
const relayStates = (): RelayState[] =>
  (win().webContents.on_(IPC_CHANNELS.uiFrame) as Array<{ type: string; state?: RelayState }>).flatMap((frame) =>
    frame.type === 'relay/state' ? [frame.state!] : [],
  )
const latestState = (): RelayState | undefined => relayStates().at(-1)

/** Sends one change from the window's main frame and waits for its result. */
async function change(changeId: string, payload: unknown): Promise<RelayChangeResult> {
  fake.ipcMain.emit(IPC_CHANNELS.relayChange, ipcEvent(win().webContents), { changeId, change: payload })
  await until(() => results().some((result) => result.changeId === changeId), `the result of ${changeId}`)
  return results().find((result) => result.changeId === changeId)!
}

beforeEach(() => {
  resetFakeElectron()
  warnings.length = 0
})
afterEach(async () => {
  await desktop?.companion.close()
  desktop = undefined
})

describe.skipIf(skip)('relay changes from the desktop window (real nats-server)', () => {
  let desks: RelayDesks
  beforeAll(async () => {
    desks = await setUpRelayDesks('relay-changes-', ['ci-job'])
  }, 120_000)
  afterAll(() => desks?.close())

  it('the mirror switch, remote passwords and Remove apply as `ask-user relay …` does, and relay/state follows', async () => {
    await start(desks.homeA)
    await until(() => latestState()?.devices.some((device) => device.name === 'laptop-b') === true, 'the roster')
    await until(() => latestState()?.mirrorLocalAsks === false, 'the mirror setting')
    const rosterVersion = latestState()!.roster!.version

    expect(await change('c1', { type: 'relay/mirror-local', on: true })).toEqual({ changeId: 'c1', ok: true })
    expect(await mirrorLocalAsks(desks.homeA)).toBe(true)
    await until(() => latestState()?.mirrorLocalAsks === true, 'mirroring on in relay/state')

    expect(await change('c2', { type: 'relay/remote-passwords', agent: 'ci-job', allow: true })).toEqual({
      changeId: 'c2',
      ok: true,
    })
    expect((await loadRemotePasswords(desks.homeA)).agents.map((agent) => agent.name)).toEqual(['ci-job'])
    await until(() => latestState()?.agents[0]?.passwordsAllowed === true, 'passwords allowed in relay/state')

    // "Also on laptop-b" (a paired device, as a phone is): the record sealed to it is written on the relay,
    // the file names the device, and relay/state shows it under the agent; off rewrites it at once.
    const onPhone = { type: 'relay/remote-passwords', agent: 'ci-job', allow: true, on: 'laptop-b' }
    expect(await change('p1', onPhone)).toEqual({ changeId: 'p1', ok: true })
    expect((await loadRemotePasswords(desks.homeA)).agents[0]?.devices?.map((device) => device.name)).toEqual([
      'laptop-b',
    ])
    expect((await loadRemotePasswords(desks.homeA)).devicesVersion).toBe(1)
    await until(() => latestState()?.agents[0]?.passwordsOnDevices?.[0] === 'laptop-b', 'the phone in relay/state')
    expect(await change('p2', { ...onPhone, allow: false })).toEqual({ changeId: 'p2', ok: true })
    expect((await loadRemotePasswords(desks.homeA)).agents[0]?.devices).toBeUndefined()
    expect((await loadRemotePasswords(desks.homeA)).devicesVersion).toBe(2)
    await until(() => latestState()?.agents[0]?.passwordsOnDevices === undefined, 'the phone off in relay/state')
    expect(latestState()?.agents[0]?.passwordsAllowed).toBe(true)
    expect(await change('p3', { ...onPhone, on: 'nobody' })).toEqual({
      changeId: 'p3',
      ok: false,
      code: 'RELAY_NO_SUCH_DEVICE',
      message: 'The roster lists no paired device called "nobody"; run `ask-user relay devices` for the names.',
    })

    expect(await change('c3', { type: 'devices/remove', name: 'laptop-b' })).toEqual({ changeId: 'c3', ok: true })
    await until(() => latestState()?.devices.every((device) => device.name !== 'laptop-b') === true, 'the removal')
    expect(latestState()!.roster!.version).toBe(rosterVersion + 1)
    // The removed laptop's NATS user is revoked, as `relay remove` does.
    expect(Object.keys((await loadRenewals(desks.homeA)).revoked ?? {})).toHaveLength(1)

    expect(await change('c4', { type: 'devices/remove', name: 'nobody' })).toEqual({
      changeId: 'c4',
      ok: false,
      code: 'RELAY_NO_SUCH_MEMBER',
      message: 'The roster lists no member called "nobody"; run `ask-user relay devices` for the names.',
    })
  }, 90_000)

  it('a relay that cannot be reached: RELAY_UNREACHABLE in a sentence, and the roster stays as it was', async () => {
    await start(desks.homeA)
    await until(() => latestState()?.roster !== undefined, 'the roster')
    const before = latestState()!.roster!.version
    await desks.server.stop()
    const result = await change('c5', { type: 'devices/remove', name: 'ci-job' })
    expect(result).toMatchObject({ changeId: 'c5', ok: false, code: 'RELAY_UNREACHABLE' })
    expect((result as { message: string }).message).toMatch(
      /^The relay could not be reached \(.+\); nothing was changed\. Check that it runs, then try again\.$/,
    )
    expect(latestState()!.roster!.version).toBe(before)
    expect(latestState()!.agents.map((agent) => agent.name)).toEqual(['ci-job'])
  }, 90_000)
})

describe('relay changes main refuses', () => {
  let home: Awaited<ReturnType<typeof tempHome>>
  beforeEach(async () => {
    home = await tempHome()
  })
  afterEach(() => home.cleanup())

  it('from a sub-frame, another webContents or in a shape it does not know: no result, nothing written', async () => {
    await start(home.home)
    const contents = win().webContents
    const payload = { changeId: 'x', change: { type: 'relay/mirror-local', on: true } }
    fake.ipcMain.emit(IPC_CHANNELS.relayChange, ipcEvent(contents, new FakeFrame(contents.mainFrame.url)), payload)
    fake.ipcMain.emit(IPC_CHANNELS.relayChange, ipcEvent(new FakeBrowserWindow({}).webContents), payload)
    for (const change of [
      { type: 'relay/settings', url: 'nats://evil.example' },
      { type: 'relay/mirror-local', on: 'yes' },
      { type: 'devices/remove', name: 'laptop-b', force: true },
      { type: 'relay/remote-passwords', agent: 'ci-job', allow: true, on: '' },
    ])
      fake.ipcMain.emit(IPC_CHANNELS.relayChange, ipcEvent(contents), { changeId: 'y', change })
    expect(results()).toEqual([])
    expect(warnings.filter((warning) => warning.startsWith('ipc: refused'))).toEqual([
      "ipc: refused: sender is not the question window's main frame",
      "ipc: refused: sender is not the question window's main frame",
      'ipc: refused: invalid relay change',
      'ipc: refused: invalid relay change',
      'ipc: refused: invalid relay change',
      'ipc: refused: invalid relay change',
    ])
    expect(await mirrorLocalAsks(home.home)).toBe(false)
  })

  it('a change in a home without a relay: RELAY_NOT_INITIALIZED with what to run', async () => {
    await start(home.home)
    expect(await change('c1', { type: 'relay/mirror-local', on: true })).toEqual({
      changeId: 'c1',
      ok: false,
      code: 'RELAY_NOT_INITIALIZED',
      message: "No relay is set up in this companion's home; run `ask-user relay init --self-hosted DIR` first.",
    })
  })
})
