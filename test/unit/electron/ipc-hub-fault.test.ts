// The Electron window's relay when the core fails on one of the window's frames: the core closes that
// attachment (core/ui-channel.ts), and the relay attaches the window again, so it gets a fresh snapshot
// and every later frame, once, instead of being left deaf. Strict fake Electron; the real hub and registry.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setupIpcHub, type IpcHub } from '../../../electron/main/ipc-hub'
import type { DesktopCompanion } from '../../../electron/main/companion'
import { Registry } from '../../../core/registry'
import { WindowHub } from '../../../core/ui-channel'
import { IPC_CHANNELS } from '../../../shared/ipc'
import type { UiServerFrame } from '../../../shared/ui'
import { asElectron, fake, FakeBrowserWindow, ipcEvent, resetFakeElectron } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronMock())

let relay: IpcHub | undefined
beforeEach(() => resetFakeElectron())
afterEach(() => relay?.dispose())

describe('IPC relay after a fault in the core', () => {
  it('attaches the window again: a fresh snapshot, then each frame once', async () => {
    const warnings: string[] = []
    const registry = new Registry(Date.now, (m) => void warnings.push(m), 20_000)
    // A history whose reply cannot be serialized, as V8 refuses a string past its longest.
    const poisoned = {
      toJSON: (): never => {
        throw new RangeError('Invalid string length')
      },
    }
    const hub = new WindowHub({
      registry,
      history: async () => ({ entries: [poisoned], more: false }) as never,
      warn: (m) => void warnings.push(m),
    })
    const companion = { attachWindow: (send, options) => hub.attach((frame) => send(frame), options ?? {}) } as Pick<
      DesktopCompanion,
      'attachWindow'
    >
    const window = new FakeBrowserWindow({ width: 800, height: 600 })
    window.webContents.mainFrame.url = 'app://companion/index.html'
    relay = setupIpcHub({
      ipcMain: asElectron(fake.ipcMain, 'IpcMain'),
      window: asElectron(window, 'BrowserWindow'),
      companion: companion as DesktopCompanion,
      isAppUrl: () => true,
      onRefused: (reason) => void warnings.push(reason),
    })
    const frames = (): UiServerFrame[] => window.webContents.on_(IPC_CHANNELS.uiFrame) as UiServerFrame[]
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(window.webContents))
    expect(frames().map((f) => f.type)).toEqual(['snapshot'])
    fake.ipcMain.emit(IPC_CHANNELS.send, ipcEvent(window.webContents), { type: 'history/get' })
    await vi.waitFor(() => expect(frames().map((f) => f.type)).toEqual(['snapshot', 'snapshot']))
    expect(hub.size).toBe(1)
    registry.add({
      kind: 'question',
      agent: { name: 'agent' },
      title: undefined,
      questions: [{ id: 'q1', question: 'Go?' }],
      wireId: 'w1',
      owner: { settled: () => true },
    })
    expect(frames().map((f) => f.type)).toEqual(['snapshot', 'snapshot', 'ask/added'])
    expect(warnings.join('\n')).toContain('Invalid string length')
  })
})
