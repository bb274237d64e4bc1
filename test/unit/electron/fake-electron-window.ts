// Fakes of Electron's window objects: BrowserWindow, its webContents and main frame. Each records what
// the code under test did to it; code under test only ever sees their strict views (strict-electron.ts).
import type * as Electron from 'electron'
import { fakeEvent } from './fake-electron-app'
import type { FakeApp } from './fake-electron-app'
import { FakeEmitter, registerFake } from './strict-electron'
import type { Assert, ElectronMembersOnly } from './strict-electron'

export class FakeFrame {
  constructor(public url: string) {
    registerFake(this, 'WebFrameMain')
  }
}
export type FakeFrameIsElectron = Assert<ElectronMembersOnly<FakeFrame, Electron.WebFrameMain>>

export class FakeWebContents extends FakeEmitter {
  mainFrame: FakeFrame
  sent: Array<{ channel: string; payload: unknown }> = []
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  destroyed = false
  constructor(url = '') {
    super('WebContents')
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
export type FakeWebContentsIsElectron = Assert<
  ElectronMembersOnly<FakeWebContents, Electron.WebContents, 'sent' | 'windowOpenHandler' | 'destroyed' | 'on_'>
>

export class FakeBrowserWindow extends FakeEmitter {
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
  loadOptions: unknown
  overlay: { image: unknown; description: string } | undefined
  calls: string[] = []
  constructor(public options: Record<string, any>) {
    super('BrowserWindow')
    this.bounds = { x: options['x'] ?? 100, y: options['y'] ?? 100, width: options['width'], height: options['height'] }
    FakeBrowserWindow.instances.push(this)
    // Like Electron, the new webContents goes through `web-contents-created`.
    FakeBrowserWindow.app?.emit('web-contents-created', fakeEvent(), this.webContents)
  }
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
  /** Like Electron: maximizing also shows (but does not focus) a hidden window. */
  maximize(): void {
    this.calls.push('maximize')
    this.maximized = true
    this.visible = true
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
registerFake(FakeBrowserWindow, 'typeof BrowserWindow')
type WindowHelpers =
  | 'visible'
  | 'focused'
  | 'minimized'
  | 'maximized'
  | 'destroyed'
  | 'bounds'
  | 'loaded'
  | 'loadOptions'
  | 'overlay'
  | 'calls'
  | 'options'
export type FakeBrowserWindowIsElectron = Assert<
  ElectronMembersOnly<FakeBrowserWindow, Electron.BrowserWindow, WindowHelpers>
>
export type FakeBrowserWindowClassIsElectron = Assert<
  ElectronMembersOnly<typeof FakeBrowserWindow, typeof Electron.BrowserWindow, 'instances' | 'app'>
>
