// Fakes of Electron's process-wide objects: app, session, nativeTheme, ipcMain/ipcRenderer, dialog,
// screen, contextBridge. Each records what the code under test did to it; code under test only ever
// sees their strict views (strict-electron.ts).
import type * as Electron from 'electron'
import { vi } from 'vitest'
import { FakeEmitter, registerFake } from './strict-electron'
import type { Assert, ElectronMembersOnly } from './strict-electron'

/** An event object like Electron's: `preventDefault()` is recorded. */
export function fakeEvent<T extends object>(
  extra: T = {} as T,
): T & { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    },
  }
  return event
}

export class FakeApp extends FakeEmitter {
  constructor() {
    super('App')
  }
  /** Back to a fresh app, in place (the mocked module keeps this very object). */
  reset(): void {
    this.removeAllListeners()
    Object.assign(this, {
      gotLock: true,
      exitCode: undefined,
      quitted: false,
      isPackaged: false,
      badgeCount: 0,
      appUserModelId: undefined,
      toastActivatorCLSID: '',
      paths: {},
    })
    this.loginItem = { openAtLogin: false, wasOpenedAtLogin: false }
    this.loginItemStatus = undefined
    this.loginItemCalls = []
  }
  gotLock = true
  exitCode: number | undefined
  quitted = false
  isPackaged = false
  badgeCount = 0
  loginItem = { openAtLogin: false, wasOpenedAtLogin: false }
  /** The macOS login item status to report (default: `enabled` while registered). */
  loginItemStatus: Electron.LoginItemSettings['status'] | undefined
  loginItemCalls: Array<Record<string, unknown>> = []
  requestSingleInstanceLock(): boolean {
    return this.gotLock
  }
  exit(code = 0): void {
    this.exitCode = code
  }
  /** Like Electron: `before-quit` may be prevented; otherwise the app quits. */
  quit(): void {
    const event = fakeEvent()
    this.emit('before-quit', event)
    if (!event.defaultPrevented) this.quitted = true
  }
  whenReady(): Promise<void> {
    return Promise.resolve()
  }
  getLocale(): string {
    return 'en-US'
  }
  /** Answers for `getPath(name)`, set by a test. */
  paths: Record<string, string> = {}
  getPath(name: string): string {
    const path = this.paths[name]
    if (path === undefined) throw new Error(`fake electron: no path "${name}" set for this test`)
    return path
  }
  getVersion(): string {
    return '0.1.0-test'
  }
  getName(): string {
    return 'Ask User Companion'
  }
  getAppPath(): string {
    return this.paths['app'] ?? '/opt/companion/resources/app.asar'
  }
  appUserModelId: string | undefined
  setAppUserModelId(id: string): void {
    this.appUserModelId = id
  }
  /** Electron: a random CLSID per run until `setToastActivatorCLSID`; '' here until it is set. */
  toastActivatorCLSID = ''
  /** Like Electron: an empty or unparsable GUID throws and leaves the CLSID unchanged; braces are added. */
  setToastActivatorCLSID(id: string): void {
    const bare = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i.exec(id)
    if (!bare || id.startsWith('{') !== id.endsWith('}')) throw new Error(`Invalid CLSID: ${id}`)
    this.toastActivatorCLSID = `{${bare[1]}}`
  }
  setBadgeCount(count: number): boolean {
    this.badgeCount = count
    return true
  }
  setLoginItemSettings(settings: Record<string, unknown>): void {
    this.loginItemCalls.push(settings)
    this.loginItem.openAtLogin = settings['openAtLogin'] === true
  }
  /** Like macOS 13+: a registered main-app login item reports `status: 'enabled'` unless told otherwise. */
  getLoginItemSettings() {
    return {
      ...this.loginItem,
      status: this.loginItemStatus ?? (this.loginItem.openAtLogin ? 'enabled' : 'not-registered'),
    }
  }
}
export type FakeAppIsElectron = Assert<
  ElectronMembersOnly<
    FakeApp,
    Electron.App,
    | 'reset'
    | 'gotLock'
    | 'exitCode'
    | 'quitted'
    | 'appUserModelId'
    | 'loginItem'
    | 'loginItemStatus'
    | 'loginItemCalls'
    | 'paths'
  >
>

type HeadersListener = (details: any, callback: (response: any) => void) => void

export class FakeSession {
  constructor() {
    registerFake(this, 'Session')
  }
  reset(): void {
    this.headersListener = undefined
    this.permissionRequestHandler = undefined
    this.permissionCheckHandler = undefined
  }
  headersListener: HeadersListener | undefined
  permissionRequestHandler:
    ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined
  permissionCheckHandler: ((...args: unknown[]) => boolean) | undefined
  webRequest = registerFake(
    {
      onHeadersReceived: (listener: HeadersListener): void => {
        this.headersListener = listener
      },
    },
    'WebRequest',
  )
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler
  }
}
export type FakeSessionIsElectron = Assert<
  ElectronMembersOnly<
    FakeSession,
    Electron.Session,
    'reset' | 'headersListener' | 'permissionRequestHandler' | 'permissionCheckHandler'
  >
>

export class FakeNativeTheme extends FakeEmitter {
  constructor() {
    super('NativeTheme')
  }
  shouldUseDarkColors = false
  /** Windows: the taskbar's theme, which may differ from the apps' theme. */
  shouldUseDarkColorsForSystemIntegratedUI = false
  themeSource: Electron.NativeTheme['themeSource'] = 'system'
  reset(): void {
    this.removeAllListeners()
    this.shouldUseDarkColors = false
    this.shouldUseDarkColorsForSystemIntegratedUI = false
    this.themeSource = 'system'
  }
}
export type FakeNativeThemeIsElectron = Assert<ElectronMembersOnly<FakeNativeTheme, Electron.NativeTheme, 'reset'>>

export class FakeIpcMain extends FakeEmitter {
  constructor() {
    super('IpcMain')
  }
}

export class FakeIpcRenderer extends FakeEmitter {
  constructor() {
    super('IpcRenderer')
  }
  send = vi.fn()
}
export type FakeIpcRendererIsElectron = Assert<ElectronMembersOnly<FakeIpcRenderer, Electron.IpcRenderer>>

/** A fake `dialog`: message boxes answer `response`; every box and error box is recorded. */
export function fakeDialog() {
  const dialog = {
    response: 0,
    boxes: [] as Array<Record<string, any>>,
    errors: [] as Array<[string, string]>,
    showMessageBox: vi.fn(async (...args: any[]) => {
      dialog.boxes.push(args.length > 1 ? args[1] : args[0])
      return { response: dialog.response, checkboxChecked: false }
    }),
    showErrorBox: vi.fn((title: string, content: string) => void dialog.errors.push([title, content])),
  }
  return registerFake(dialog, 'Dialog')
}
export type FakeDialogIsElectron = Assert<
  ElectronMembersOnly<ReturnType<typeof fakeDialog>, Electron.Dialog, 'response' | 'boxes' | 'errors'>
>

/** A fake `shell`: `openExternal` records each URL it was asked to open. */
export function fakeShell() {
  const shell = {
    opened: [] as string[],
    openExternal: vi.fn(async (url: string) => void shell.opened.push(url)),
  }
  return registerFake(shell, 'Shell')
}
export type FakeShellIsElectron = Assert<ElectronMembersOnly<ReturnType<typeof fakeShell>, Electron.Shell, 'opened'>>

/** A fake `screen` with one 1920×1080 display. */
export function fakeScreen() {
  return registerFake({ getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] }, 'Screen')
}

/** A fake `contextBridge` recording what the preload exposes. */
export function fakeContextBridge() {
  return registerFake({ exposeInMainWorld: vi.fn() }, 'ContextBridge')
}
