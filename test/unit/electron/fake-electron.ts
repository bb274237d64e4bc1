// A fake `electron` module for the main-process and preload unit tests (the real one cannot load outside
// Electron). Each fake records what the code under test did to it; `resetFakeElectron()` starts afresh.
// The code under test gets strict views of the fakes (strict-electron.ts): anything Electron 45 does
// not have throws a `fake electron: ...` error, so a typo fails the test instead of passing silently.
import type * as ElectronCommon from 'electron/common'
import type * as ElectronMain from 'electron/main'
import type * as ElectronRenderer from 'electron/renderer'
import { vi } from 'vitest'
import {
  fakeContextBridge,
  fakeDialog,
  FakeApp,
  FakeIpcMain,
  FakeIpcRenderer,
  FakeNativeTheme,
  fakeScreen,
  FakeSession,
  fakeShell,
} from './fake-electron-app'
import { FakeBrowserWindow } from './fake-electron-window'
import type { FakeFrame, FakeWebContents } from './fake-electron-window'
import { fakeNet } from './fake-electron-net'
import { FakeMenu, fakeNativeImage, FakeNotification, FakeTray } from './fake-electron-tray'
import { playPlatform, registerFake, toView } from './strict-electron'

export { fakeEvent, FakeApp, FakeSession } from './fake-electron-app'
export { FakeBrowserWindow, FakeFrame, FakeWebContents } from './fake-electron-window'
export { FakeImage, FakeMenu, FakeNotification, FakeTray, fakeFastHash } from './fake-electron-tray'
export { asElectron, playPlatform } from './strict-electron'

/** Everything the fake module holds, raw (with the recording helpers); one per test file, reset between tests. */
export const fake = {
  app: new FakeApp(),
  ipcMain: new FakeIpcMain(),
  nativeTheme: new FakeNativeTheme(),
  session: registerFake(
    { defaultSession: new FakeSession(), fromPartition: (_partition: string, _options?: object) => new FakeSession() },
    'typeof Session',
  ),
  net: fakeNet(),
  shell: fakeShell(),
  dialog: fakeDialog(),
  screen: fakeScreen(),
  contextBridge: fakeContextBridge(),
  ipcRenderer: new FakeIpcRenderer(),
}

/** Starts every fake afresh (call in `beforeEach`); no platform is played until `playPlatform()`. */
export function resetFakeElectron(): void {
  playPlatform(undefined)
  fake.app.reset()
  FakeBrowserWindow.app = fake.app
  FakeBrowserWindow.instances = []
  FakeTray.instances = []
  FakeNotification.reset()
  fake.ipcMain.removeAllListeners()
  fake.nativeTheme.reset()
  fake.session.defaultSession.reset()
  fake.dialog.response = 0
  fake.dialog.boxes = []
  fake.dialog.errors = []
  fake.shell.opened = []
  fake.shell.openExternal.mockClear()
  fake.contextBridge.exposeInMainWorld.mockReset()
  fake.ipcRenderer.removeAllListeners()
  fake.ipcRenderer.send.mockReset()
  fake.net.requests = []
}

/** `T`, which must be a subset of `Of` (else it fails to compile). */
type Subset<T extends Of, Of> = T

/** What a sandboxed preload can require from `electron` (Electron's sandbox docs, "Preload scripts"). */
type SandboxedPreloadModule = Subset<
  'contextBridge' | 'crashReporter' | 'ipcRenderer' | 'nativeImage' | 'webFrame' | 'webUtils',
  keyof typeof ElectronRenderer | keyof typeof ElectronCommon
>

/** The sandboxed preload's modules of `electron` we fake. */
const sandboxedPreloadModule = () =>
  ({ contextBridge: toView(fake.contextBridge), ipcRenderer: toView(fake.ipcRenderer) }) satisfies Partial<
    Record<SandboxedPreloadModule, unknown>
  >

/** The main-process modules of `electron` we fake (only names of `electron/main` and `electron/common`). */
const mainModule = () =>
  ({
    app: toView(fake.app),
    BrowserWindow: toView(FakeBrowserWindow),
    Tray: toView(FakeTray),
    Menu: toView(FakeMenu),
    Notification: toView(FakeNotification),
    nativeImage: toView(fakeNativeImage),
    nativeTheme: toView(fake.nativeTheme),
    ipcMain: toView(fake.ipcMain),
    dialog: toView(fake.dialog),
    shell: toView(fake.shell),
    session: toView(fake.session),
    screen: toView(fake.screen),
    net: toView(fake.net),
  }) satisfies Partial<Record<keyof typeof ElectronMain | keyof typeof ElectronCommon, unknown>>

/**
 * The module object `vi.mock('electron', ...)` returns: the main-process modules, or for the preload
 * only what a sandboxed preload can require. Its values are strict views of the fakes (reset in
 * place, never replaced); importing a name it lacks fails (vitest: "No ... export is defined").
 */
export function electronMock(process: 'main' | 'sandboxed-preload' = 'main'): Record<string, unknown> {
  const mod = process === 'main' ? mainModule() : sandboxedPreloadModule()
  return { ...mod, default: mod }
}

/** An `ipcMain` event as sent by `contents` from `frame` (defaults: its main frame), holding their views. */
export function ipcEvent(contents: FakeWebContents, frame: FakeFrame | null = contents.mainFrame) {
  return { sender: toView(contents), senderFrame: toView(frame), reply: vi.fn() }
}
