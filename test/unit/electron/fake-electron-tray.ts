// Fakes of Electron's tray, menu, image and notification classes. Each records what the code under
// test did to it; code under test only ever sees their strict views (strict-electron.ts).
import type * as Electron from 'electron'
import { FakeEmitter, registerFake } from './strict-electron'
import type { Assert, ElectronMembersOnly } from './strict-electron'

export class FakeImage {
  representations: Array<{ scaleFactor: number }> = []
  template = false
  constructor(public path: string) {
    registerFake(this, 'NativeImage')
  }
  addRepresentation(options: { scaleFactor: number }): void {
    this.representations.push({ scaleFactor: options.scaleFactor })
  }
  setTemplateImage(on: boolean): void {
    this.template = on
  }
}
export type FakeImageIsElectron = Assert<ElectronMembersOnly<FakeImage, Electron.NativeImage, 'representations' | 'template' | 'path'>>

/** The fake `nativeImage` module. */
export const fakeNativeImage = registerFake({ createFromPath: (path: string) => new FakeImage(path) }, 'typeof NativeImage')

export class FakeMenu {
  static buildFromTemplate(template: Array<Record<string, any>>): FakeMenu {
    return new FakeMenu(template)
  }
  constructor(public template: Array<Record<string, any>>) {
    registerFake(this, 'Menu')
  }
  /** Clicks the item with this id (checkbox items flip first, like Electron). */
  click(id: string): void {
    const item = this.template.find((i) => i['id'] === id)
    if (!item) throw new Error(`no menu item ${id}`)
    if (item['type'] === 'checkbox') item['checked'] = !item['checked']
    item['click'](item)
  }
}
registerFake(FakeMenu, 'typeof Menu')
export type FakeMenuIsElectron = Assert<ElectronMembersOnly<FakeMenu, Electron.Menu, 'template' | 'click'>>
export type FakeMenuClassIsElectron = Assert<ElectronMembersOnly<typeof FakeMenu, typeof Electron.Menu>>

export class FakeTray extends FakeEmitter {
  static instances: FakeTray[] = []
  title = ''
  tooltip = ''
  menu: FakeMenu | undefined
  destroyed = false
  constructor(public image: FakeImage) {
    super('Tray')
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
registerFake(FakeTray, 'typeof Tray')
export type FakeTrayIsElectron = Assert<ElectronMembersOnly<FakeTray, Electron.Tray, 'title' | 'tooltip' | 'menu' | 'destroyed' | 'image'>>
export type FakeTrayClassIsElectron = Assert<ElectronMembersOnly<typeof FakeTray, typeof Electron.Tray, 'instances'>>

export class FakeNotification extends FakeEmitter {
  static instances: FakeNotification[] = []
  static supported = true
  static isSupported(): boolean {
    return FakeNotification.supported
  }
  shown = false
  closed = false
  constructor(public options: { title: string; body: string; silent?: boolean }) {
    super('Notification')
    FakeNotification.instances.push(this)
  }
  show(): void {
    this.shown = true
  }
  close(): void {
    this.closed = true
    this.emit('close', { preventDefault() {}, defaultPrevented: false })
  }
}
registerFake(FakeNotification, 'typeof Notification')
export type FakeNotificationIsElectron = Assert<ElectronMembersOnly<FakeNotification, Electron.Notification, 'shown' | 'closed' | 'options'>>
export type FakeNotificationClassIsElectron = Assert<ElectronMembersOnly<typeof FakeNotification, typeof Electron.Notification, 'instances' | 'supported'>>
