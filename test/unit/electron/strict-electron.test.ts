// The fake electron is strict: what Electron 45 lacks throws, so a typo in product code fails a test.
import type * as Electron from 'electron'
import type * as ElectronCommon from 'electron/common'
import type * as ElectronMain from 'electron/main'
import { beforeEach, describe, expect, it } from 'vitest'
import { electronCatalog } from './electron-45-api'
import {
  electronMock,
  fake,
  FakeBrowserWindow,
  FakeMenu,
  FakeTray,
  playPlatform,
  resetFakeElectron,
} from './fake-electron'

beforeEach(() => resetFakeElectron())

const main = () => electronMock('main') as unknown as typeof ElectronMain & typeof ElectronCommon
const newWindow = (): Electron.BrowserWindow => new (main().BrowserWindow)({ width: 800, height: 600 })
const newTray = (): Electron.Tray => new (main().Tray)(main().nativeImage.createFromPath('/icon.png'))
/** Reads a member the typings do not have (what a typo in product code does at run time). */
const read = (target: object, name: string): unknown => (target as Record<string, unknown>)[name]

describe('the catalog, read from electron.d.ts', () => {
  it('is the 45.5.0 typings, with members, platforms and events per class', () => {
    const catalog = electronCatalog()
    expect(catalog.version).toBe('45.5.0')
    const browserWindow = catalog.instance('BrowserWindow')
    expect(browserWindow.members.has('loadFile')).toBe(true)
    expect(browserWindow.members.has('setBounds')).toBe(true) // inherited from BaseWindow
    expect(browserWindow.events?.has('ready-to-show')).toBe(true)
    expect(browserWindow.events?.has('close')).toBe(true)
    expect(catalog.instance('Tray').members.get('displayBalloon')).toEqual({ readonly: true, platforms: ['win32'] })
    expect(catalog.instance('App').members.get('setBadgeCount')?.platforms).toEqual(['linux', 'darwin'])
    expect(catalog.instance('NativeTheme').members.get('shouldUseDarkColors')?.readonly).toBe(true)
    expect(catalog.statics('Notification').members.has('isSupported')).toBe(true)
    expect(catalog.instance('IpcMain').events).toBeUndefined() // any channel name
    expect(() => catalog.instance('BrowserWindo')).toThrow(
      'fake electron: Electron 45.5.0 has no class or interface BrowserWindo',
    )
  })
})

describe('the strict views', () => {
  it('throw on a made-up method or property, and hide the test helpers from the code under test', () => {
    const win = newWindow()
    expect(() => read(win, 'fooBar')).toThrow('fake electron: BrowserWindow.fooBar is not an Electron 45.5.0 API')
    expect(() => read(win, 'isVisble')).toThrow('fake electron: BrowserWindow.isVisble is not an Electron 45.5.0 API')
    expect(() => read(win, 'visible')).toThrow('fake electron: BrowserWindow.visible is not an Electron 45.5.0 API')
    expect(() => read(main().app, 'setBadge')).toThrow('fake electron: App.setBadge is not an Electron 45.5.0 API')
    expect(() => read(main().Notification, 'fooBar')).toThrow(
      'fake electron: Notification (static).fooBar is not an Electron 45.5.0 API',
    )
    expect(() => read(win.webContents, 'mainFrame2')).toThrow(
      'fake electron: WebContents.mainFrame2 is not an Electron 45.5.0 API',
    )
    expect(win.isVisible()).toBe(false)
    expect(FakeBrowserWindow.instances[0]!.visible).toBe(false) // the raw fake keeps its helpers
  })

  it('throw on an event the object never emits, on subscribing and on emitting', () => {
    const win = newWindow()
    expect(() => win.on('foo-bar' as never, () => undefined)).toThrow(
      "fake electron: BrowserWindow does not emit 'foo-bar' in Electron 45.5.0",
    )
    expect(() => win.once('foo-bar' as never, () => undefined)).toThrow(
      "fake electron: BrowserWindow does not emit 'foo-bar' in Electron 45.5.0",
    )
    expect(() => main().app.on('ready-to-show' as never, () => undefined)).toThrow(
      "fake electron: App does not emit 'ready-to-show' in Electron 45.5.0",
    )
    expect(() => fake.app.emit('ready-to-show')).toThrow(
      "fake electron: App does not emit 'ready-to-show' in Electron 45.5.0",
    )
    win.on('ready-to-show', () => undefined)
    main().ipcMain.on('companion:any-channel', () => undefined) // IPC channels are free names
    expect(FakeBrowserWindow.instances[0]!.listenerCount('ready-to-show')).toBe(1)
  })

  it('throw on a real API the fake lacks, on a read-only property, and on another OS only API', () => {
    const tray = newTray()
    expect(() => tray.displayBalloon({ title: 't', content: 'c' })).toThrow(
      'fake electron: Tray.displayBalloon is an Electron 45.5.0 API the fake does not implement',
    )
    const theme = main().nativeTheme
    expect(() => Object.assign(theme, { shouldUseDarkColors: true })).toThrow(
      'fake electron: NativeTheme.shouldUseDarkColors is read-only in Electron 45.5.0',
    )
    theme.themeSource = 'dark'
    expect(fake.nativeTheme.themeSource).toBe('dark')
    playPlatform('linux')
    expect(() => tray.setTitle('1')).toThrow(
      'fake electron: Tray.setTitle is an Electron 45.5.0 API for darwin only; this test plays linux',
    )
    expect(() => main().app.setAppUserModelId('x')).toThrow(
      'fake electron: App.setAppUserModelId is an Electron 45.5.0 API for win32 only; this test plays linux',
    )
    playPlatform('darwin')
    tray.setTitle('1')
    expect(FakeTray.instances[0]!.title).toBe('1')
  })

  it('hand the fakes views and take views back as the raw fakes', () => {
    const win = newWindow()
    expect(win.webContents).toBe(win.webContents)
    expect(win.webContents.mainFrame.url).toBe('')
    const tray = newTray()
    tray.setContextMenu(main().Menu.buildFromTemplate([{ id: 'x', label: 'X', click: () => undefined }]))
    expect(FakeTray.instances[0]!.menu).toBeInstanceOf(FakeMenu)
    expect(FakeTray.instances[0]!.menu!.template[0]!['label']).toBe('X')
  })

  it('offer a sandboxed preload only what it can require, and the main process no renderer modules', () => {
    expect(Object.keys(electronMock('sandboxed-preload')).sort()).toEqual(['contextBridge', 'default', 'ipcRenderer'])
    expect(Object.keys(electronMock('main'))).not.toContain('ipcRenderer')
    expect(Object.keys(electronMock('main'))).not.toContain('contextBridge')
  })
})
