// A fake `electron` module for the main-process and preload unit tests (the real one cannot load outside
// Electron). Each fake records what the code under test did to it; `resetFakeElectron()` starts afresh.
import { EventEmitter } from 'node:events'
import { vi } from 'vitest'

/** An event object like Electron's: `preventDefault()` is recorded. */
export function fakeEvent<T extends object>(extra: T = {} as T): T & { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    },
  }
  return event
}

export class FakeFrame {
  constructor(public url: string) {}
}

export class FakeWebContents extends EventEmitter {
  mainFrame: FakeFrame
  sent: Array<{ channel: string; payload: unknown }> = []
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  destroyed = false
  constructor(url = '') {
    super()
    this.mainFrame = new FakeFrame(url)
  }
  send(channel: string, payload?: unknown): void {
    this.sent.push({ channel, payload })
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  /** Frames sent on one channel. */
  on_(channel: string): unknown[] {
    return this.sent.filter((s) => s.channel === channel).map((s) => s.payload)
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = []
  static app: FakeApp | undefined
  webContents = new FakeWebContents()
  visible = false
  focused = false
  minimized = false
  maximized = false
  destroyed = false
  bounds: { x: number; y: number; width: number; height: number }
  loaded: { kind: 'file' | 'url'; target: string } | undefined
  overlay: { image: unknown; description: string } | undefined
  calls: string[] = []
  constructor(public options: Record<string, any>) {
    super()
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height }
    FakeBrowserWindow.instances.push(this)
    // Like Electron, the new webContents goes through `web-contents-created`.
    FakeBrowserWindow.app?.emit('web-contents-created', fakeEvent(), this.webContents)
  }
  loadOptions: unknown
  async loadFile(path: string, options?: unknown): Promise<void> {
    this.loaded = { kind: 'file', target: path }
    this.loadOptions = options
    this.webContents.mainFrame.url = new URL(`file://${path}`).href
  }
  async loadURL(url: string): Promise<void> {
    this.loaded = { kind: 'url', target: url }
    this.webContents.mainFrame.url = url
  }
  show(): void {
    this.calls.push('show')
    this.visible = true
  }
  hide(): void {
    this.calls.push('hide')
    this.visible = false
    this.focused = false
  }
  focus(): void {
    this.calls.push('focus')
    this.focused = true
  }
  restore(): void {
    this.minimized = false
  }
  maximize(): void {
    this.maximized = true
  }
  isVisible(): boolean {
    return this.visible
  }
  isFocused(): boolean {
    return this.focused
  }
  isMinimized(): boolean {
    return this.minimized
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  getNormalBounds() {
    return { ...this.bounds }
  }
  setOverlayIcon(image: unknown, description: string): void {
    this.overlay = { image, description }
  }
  /** Closes like a user click on the close button; returns whether it was prevented (hidden instead). */
  close(): boolean {
    const event = fakeEvent()
    this.emit('close', event)
    if (!event.defaultPrevented) {
      this.destroyed = true
      this.webContents.destroyed = true
      this.emit('closed')
    }
    return event.defaultPrevented
  }
}

export class FakeImage {
  representations: Array<{ scaleFactor: number }> = []
  template = false
  constructor(public path: string) {}
  addRepresentation(options: { scaleFactor: number }): void {
    this.representations.push({ scaleFactor: options.scaleFactor })
  }
  setTemplateImage(on: boolean): void {
    this.template = on
  }
}

export class FakeMenu {
  constructor(public template: Array<Record<string, any>>) {}
  /** Clicks the item with this id (checkbox items flip first, like Electron). */
  click(id: string): void {
    const item = this.template.find((i) => i.id === id)
    if (!item) throw new Error(`no menu item ${id}`)
    if (item.type === 'checkbox') item.checked = !item.checked
    item.click(item)
  }
}

export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = []
  title = ''
  tooltip = ''
  menu: FakeMenu | undefined
  destroyed = false
  constructor(public image: FakeImage) {
    super()
    FakeTray.instances.push(this)
  }
  setImage(image: FakeImage): void {
    this.image = image
  }
  setTitle(title: string): void {
    this.title = title
  }
  setToolTip(tooltip: string): void {
    this.tooltip = tooltip
  }
  setContextMenu(menu: FakeMenu): void {
    this.menu = menu
  }
  destroy(): void {
    this.destroyed = true
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
}

export class FakeNotification extends EventEmitter {
  static instances: FakeNotification[] = []
  static supported = true
  static isSupported(): boolean {
    return FakeNotification.supported
  }
  shown = false
  closed = false
  constructor(public options: { title: string; body: string; silent?: boolean }) {
    super()
    FakeNotification.instances.push(this)
  }
  show(): void {
    this.shown = true
  }
  close(): void {
    this.closed = true
    this.emit('close')
  }
}

export class FakeApp extends EventEmitter {
  /** Back to a fresh app, in place (the mocked module keeps this very object). */
  reset(): void {
    this.removeAllListeners()
    Object.assign(this, { gotLock: true, exitCode: undefined, quitted: false, isPackaged: false, badgeCount: 0 })
    this.loginItem = { openAtLogin: false, wasOpenedAtLogin: false }
    this.loginItemCalls = []
  }
  gotLock = true
  exitCode: number | undefined
  quitted = false
  isPackaged = false
  badgeCount = 0
  loginItem = { openAtLogin: false, wasOpenedAtLogin: false }
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
  getVersion(): string {
    return '0.1.0-test'
  }
  setAppUserModelId(): void {}
  setBadgeCount(count: number): boolean {
    this.badgeCount = count
    return true
  }
  setLoginItemSettings(settings: Record<string, unknown>): void {
    this.loginItemCalls.push(settings)
    this.loginItem.openAtLogin = settings['openAtLogin'] === true
  }
  getLoginItemSettings() {
    return { ...this.loginItem }
  }
}

export class FakeSession {
  reset(): void {
    this.headersListener = undefined
    this.permissionRequestHandler = undefined
    this.permissionCheckHandler = undefined
  }
  headersListener: ((details: any, callback: (response: any) => void) => void) | undefined
  permissionRequestHandler: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined
  permissionCheckHandler: ((...args: unknown[]) => boolean) | undefined
  webRequest = {
    onHeadersReceived: (listener: (details: any, callback: (response: any) => void) => void): void => {
      this.headersListener = listener
    },
  }
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler
  }
}

/** Everything the fake module holds; one per test file, reset between tests. */
export const fake = {
  app: new FakeApp(),
  ipcMain: new EventEmitter(),
  nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false, themeSource: 'system' }),
  session: { defaultSession: new FakeSession() },
  dialog: {
    response: 0,
    boxes: [] as Array<Record<string, any>>,
    errors: [] as Array<[string, string]>,
    showMessageBox: vi.fn(async (...args: any[]) => {
      fake.dialog.boxes.push(args.length > 1 ? args[1] : args[0])
      return { response: fake.dialog.response, checkboxChecked: false }
    }),
    showErrorBox: vi.fn((title: string, content: string) => void fake.dialog.errors.push([title, content])),
  },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: Object.assign(new EventEmitter(), { send: vi.fn() }),
}

/** Starts every fake afresh (call in `beforeEach`). */
export function resetFakeElectron(): void {
  fake.app.reset()
  FakeBrowserWindow.app = fake.app
  FakeBrowserWindow.instances = []
  FakeTray.instances = []
  FakeNotification.instances = []
  FakeNotification.supported = true
  fake.ipcMain.removeAllListeners()
  fake.nativeTheme.removeAllListeners()
  fake.nativeTheme.shouldUseDarkColors = false
  fake.nativeTheme.themeSource = 'system'
  fake.session.defaultSession.reset()
  fake.dialog.response = 0
  fake.dialog.boxes = []
  fake.dialog.errors = []
  fake.contextBridge.exposeInMainWorld.mockReset()
  fake.ipcRenderer.removeAllListeners()
  fake.ipcRenderer.send.mockReset()
}

/** The module object `vi.mock('electron', ...)` returns (the fakes are reset in place, never replaced). */
export function electronMock(): Record<string, unknown> {
  const mod = {
    app: fake.app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (template: Array<Record<string, any>>) => new FakeMenu(template) },
    Notification: FakeNotification,
    nativeImage: { createFromPath: (path: string) => new FakeImage(path) },
    nativeTheme: fake.nativeTheme,
    ipcMain: fake.ipcMain,
    dialog: fake.dialog,
    session: fake.session,
    screen: fake.screen,
    contextBridge: fake.contextBridge,
    ipcRenderer: fake.ipcRenderer,
  }
  return { ...mod, default: mod }
}

/** An `ipcMain` event as sent by `contents` from `frame` (defaults: its main frame). */
export function ipcEvent(contents: FakeWebContents, frame: FakeFrame | null = contents.mainFrame) {
  return { sender: contents, senderFrame: frame, reply: vi.fn() }
}
