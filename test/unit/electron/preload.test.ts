// The preload: exactly the task-named bridge, over the `companion:` IPC channels (mocked electron).
import { beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import type { CompanionBridge, UiServerFrame } from '../../../shared'
import { IPC_CHANNELS } from '../../../shared/ipc'
import { createIpcBridge } from '../../../electron/preload/bridge'
import { asElectron, fake, resetFakeElectron } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronMock('sandboxed-preload'))

beforeEach(() => resetFakeElectron())

/** The preload's view of the fake ipcRenderer. */
const ipcRenderer = () => asElectron(fake.ipcRenderer, 'IpcRenderer')

const snapshot: UiServerFrame = { type: 'snapshot', pending: [] }

describe('preload', () => {
  it('exposes exactly the task-named functions as window.companion', async () => {
    await import('../../../electron/preload/index')
    expect(fake.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1)
    const [name, api] = fake.contextBridge.exposeInMainWorld.mock.calls[0]!
    expect(name).toBe('companion')
    expect(Object.keys(api).sort()).toEqual([
      'answer',
      'changeRelay',
      'decide',
      'dismiss',
      'dismissNotice',
      'onFocusAsk',
      'onFrame',
      'onStatus',
      'openLink',
      'phonePairing',
      'reportShown',
      'requestHistory',
    ])
    const { phonePairing, ...calls } = api as Record<string, unknown>
    for (const value of Object.values(calls)) expect(typeof value).toBe('function')
    // "Add a phone": task-named functions too, grouped (the window-only pairing channels).
    expect(Object.keys(phonePairing as object).sort()).toEqual(['decide', 'onState', 'start'])
    for (const value of Object.values(phonePairing as object)) expect(typeof value).toBe('function')
    expectTypeOf(createIpcBridge(ipcRenderer())).toExtend<CompanionBridge>()
  })

  it('sends answer, dismiss, decide and history requests as UI client frames on companion:send', () => {
    const bridge = createIpcBridge(ipcRenderer())
    bridge.answer('a1', [{ id: 'q1', selected: ['Yes'] }])
    bridge.dismiss('a2')
    bridge.decide('a3', { behavior: 'deny', message: 'no' })
    bridge.dismissNotice('n1')
    bridge.requestHistory()
    bridge.requestHistory(5)
    expect(fake.ipcRenderer.send.mock.calls).toEqual([
      [IPC_CHANNELS.send, { type: 'ask/answer', askId: 'a1', answers: [{ id: 'q1', selected: ['Yes'] }] }],
      [IPC_CHANNELS.send, { type: 'ask/dismiss', askId: 'a2' }],
      [IPC_CHANNELS.send, { type: 'ask/decide', askId: 'a3', decision: { behavior: 'deny', message: 'no' } }],
      [IPC_CHANNELS.send, { type: 'notice/dismiss', noticeId: 'n1' }],
      [IPC_CHANNELS.send, { type: 'history/get' }],
      [IPC_CHANNELS.send, { type: 'history/get', limit: 5 }],
    ])
  })

  it("subscribes on the first onFrame only, delivers main's frames as they are (main is trusted) and reports the status", () => {
    const bridge = createIpcBridge(ipcRenderer())
    const statuses: string[] = []
    bridge.onStatus((s) => void statuses.push(s))
    const got: UiServerFrame[] = []
    const off = bridge.onFrame((f) => void got.push(f))
    bridge.onFrame(() => undefined)
    expect(fake.ipcRenderer.send.mock.calls).toEqual([[IPC_CHANNELS.subscribe]])
    fake.ipcRenderer.emit(IPC_CHANNELS.uiFrame, {}, snapshot)
    expect(got).toEqual([snapshot])
    expect(statuses).toEqual(['connecting', 'open'])
    off()
    fake.ipcRenderer.emit(IPC_CHANNELS.uiFrame, {}, snapshot)
    expect(got).toEqual([snapshot])
  })

  it('sends a relay change with its own id on companion:relay-change and resolves with the result for that id', async () => {
    const bridge = createIpcBridge(ipcRenderer())
    const first = bridge.changeRelay({ type: 'relay/mirror-local', on: true })
    const second = bridge.changeRelay({ type: 'devices/remove', name: 'laptop-b' })
    expect(fake.ipcRenderer.send.mock.calls).toEqual([
      [IPC_CHANNELS.relayChange, { changeId: 'change-1', change: { type: 'relay/mirror-local', on: true } }],
      [IPC_CHANNELS.relayChange, { changeId: 'change-2', change: { type: 'devices/remove', name: 'laptop-b' } }],
    ])
    const refused = { changeId: 'change-2', ok: false, code: 'RELAY_ROSTER_CONFLICT', message: 'Run it again.' }
    fake.ipcRenderer.emit(IPC_CHANNELS.relayChangeResult, {}, refused)
    fake.ipcRenderer.emit(IPC_CHANNELS.relayChangeResult, {}, { changeId: 'change-1', ok: true })
    expect(await second).toEqual(refused)
    expect(await first).toEqual({ changeId: 'change-1', ok: true })
  })

  it('hands a focus request made before any listener to the first one', () => {
    const bridge = createIpcBridge(ipcRenderer())
    fake.ipcRenderer.emit(IPC_CHANNELS.focusAsk, {}, { askId: 'a7' })
    const focused: string[] = []
    bridge.onFocusAsk((id) => void focused.push(id))
    fake.ipcRenderer.emit(IPC_CHANNELS.focusAsk, {}, { askId: 'a8' })
    expect(focused).toEqual(['a7', 'a8'])
  })

  it('pairs a phone only over its own IPC channels, never as a UI frame on companion:send', () => {
    const bridge = createIpcBridge(ipcRenderer())
    const states: unknown[] = []
    bridge.phonePairing.onState((state) => states.push(state))
    bridge.phonePairing.start()
    bridge.phonePairing.decide('pairpairpairpairpair01', true)
    expect(fake.ipcRenderer.send.mock.calls).toEqual([
      [IPC_CHANNELS.phonePairStart],
      [IPC_CHANNELS.phonePairDecide, { pairId: 'pairpairpairpairpair01', confirm: true }],
    ])
    const offer = {
      state: 'offer',
      pairId: 'pairpairpairpairpair01',
      link: 'https://app.example/#pair=x',
      expiresAt: 1,
    }
    fake.ipcRenderer.emit(IPC_CHANNELS.phonePairState, {}, offer)
    expect(states).toEqual([offer])
  })
})
