// Fakes of Electron's tray, menu, image and notification classes. Each records what the code under
// test did to it; code under test only ever sees their strict views (strict-electron.ts).
import type * as Electron from 'electron'
import { FakeEmitter, playedPlatform, registerFake } from './strict-electron'
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
export type FakeImageIsElectron = Assert<
  ElectronMembersOnly<FakeImage, Electron.NativeImage, 'representations' | 'template' | 'path'>
>

/** The fake `nativeImage` module. */
export const fakeNativeImage = registerFake(
  { createFromPath: (path: string) => new FakeImage(path) },
  'typeof NativeImage',
)

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
export type FakeTrayIsElectron = Assert<
  ElectronMembersOnly<FakeTray, Electron.Tray, 'title' | 'tooltip' | 'menu' | 'destroyed' | 'image'>
>
export type FakeTrayClassIsElectron = Assert<ElectronMembersOnly<typeof FakeTray, typeof Electron.Tray, 'instances'>>

/** How Windows delivers one activation: which of the two reports come, and in which order. */
export interface WindowsDelivery {
  /** The live instance's `action` / `reply` / `click` event (Electron's docs: in addition to the callback). Default true. */
  instance?: boolean
  /** Default `instance-first`. */
  order?: 'instance-first' | 'handler-first'
}

/** A stand-in for Chromium's base::FastHash, which Electron writes as a toast's `tag=` (a decimal number). */
export function fakeFastHash(id: string): string {
  let hash = 0x811c9dc5
  for (const byte of Buffer.from(id, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  return String(hash)
}

const unescapeXml = (text: string): string =>
  text.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name] ?? '',
  )

export class FakeNotification extends FakeEmitter {
  static instances: FakeNotification[] = []
  static supported = true
  /** The callback given to `handleActivation` (Windows), and activations that came before it (a cold start). */
  static activationHandler: ((details: Electron.ActivationArguments) => void) | undefined
  static queuedActivations: Electron.ActivationArguments[] = []
  /** Ids passed to `Notification.remove` (macOS). */
  static removed: string[] = []
  static reset(): void {
    FakeNotification.instances = []
    FakeNotification.supported = true
    FakeNotification.activationHandler = undefined
    FakeNotification.queuedActivations = []
    FakeNotification.removed = []
  }
  static isSupported(): boolean {
    return FakeNotification.supported
  }
  /** Like Electron: an activation that happened before the callback was registered is delivered at once. */
  static handleActivation(callback: (details: Electron.ActivationArguments) => void): void {
    FakeNotification.activationHandler = callback
    const queued = FakeNotification.queuedActivations
    FakeNotification.queuedActivations = []
    for (const details of queued) callback(details)
  }
  static remove(id: string | string[]): void {
    FakeNotification.removed.push(...(Array.isArray(id) ? id : [id]))
  }

  /**
   * Windows reports an activation to `handleActivation` only: no instance is alive (after a restart),
   * or none matched; `arguments` are the toast's (`type=...&tag=...`).
   */
  static reportActivation(details: Electron.ActivationArguments): void {
    if (FakeNotification.activationHandler) FakeNotification.activationHandler(details)
    else FakeNotification.queuedActivations.push(details)
  }

  shown = false
  closed = false
  readonly id: string
  title: string
  body: string
  silent: boolean
  actions: Electron.NotificationAction[]
  hasReply: boolean
  replyPlaceholder: string
  closeButtonText: string
  toastXml: string
  constructor(public options: Electron.NotificationConstructorOptions & { title: string; body: string }) {
    super('Notification')
    this.id = options.id || `fake-${FakeNotification.instances.length + 1}`
    this.title = options.title
    this.body = options.body
    this.silent = options.silent ?? false
    this.actions = options.actions ?? []
    this.hasReply = options.hasReply ?? false
    this.replyPlaceholder = options.replyPlaceholder ?? ''
    this.closeButtonText = options.closeButtonText ?? ''
    this.toastXml = options.toastXml ?? ''
    FakeNotification.instances.push(this)
  }
  show(): void {
    this.shown = true
  }
  close(): void {
    this.closed = true
    this.emit('close', { preventDefault() {}, defaultPrevented: false })
  }

  /** The person pressed button `index` of this notification, as the played OS reports it. */
  pressButton(index: number, delivery: WindowsDelivery = {}): void {
    const platform = playedPlatform()
    if (platform === 'darwin') {
      this.emit(
        'action',
        { actionIndex: index, selectionIndex: -1, preventDefault() {}, defaultPrevented: false },
        index,
      )
      return
    }
    if (platform !== 'win32')
      throw new Error(
        `fake electron: notifications have no buttons on ${platform ?? 'an unplayed platform'} (libnotify gives a click only)`,
      )
    const args = this.windowsArguments('action', index)
    this.deliver(
      () =>
        this.emit(
          'action',
          { actionIndex: index, selectionIndex: -1, preventDefault() {}, defaultPrevented: false },
          index,
          -1,
        ),
      { type: 'action', arguments: args, actionIndex: index, userInputs: {} },
      delivery,
    )
  }

  /** The person sent `text` in this notification's reply box, as the played OS reports it. */
  sendReply(text: string, delivery: WindowsDelivery = {}): void {
    const platform = playedPlatform()
    if (!this.hasReply) throw new Error('fake electron: this notification has no reply box (hasReply is false)')
    if (platform === 'darwin') {
      this.emit('reply', { reply: text, preventDefault() {}, defaultPrevented: false }, text)
      return
    }
    if (platform !== 'win32')
      throw new Error(`fake electron: notifications have no reply box on ${platform ?? 'an unplayed platform'}`)
    const args = this.windowsArguments('reply')
    this.deliver(
      () => this.emit('reply', { reply: text, preventDefault() {}, defaultPrevented: false }, text),
      { type: 'reply', arguments: args, reply: text, userInputs: { reply: text } },
      delivery,
    )
  }

  /** The person clicked the notification's body. */
  clickBody(delivery: WindowsDelivery = {}): void {
    if (playedPlatform() !== 'win32') {
      this.emit('click', { preventDefault() {}, defaultPrevented: false })
      return
    }
    this.deliver(
      () => this.emit('click', { preventDefault() {}, defaultPrevented: false }),
      { type: 'click', arguments: this.windowsArguments('click'), userInputs: {} },
      delivery,
    )
  }

  private deliver(instanceEvent: () => void, details: Electron.ActivationArguments, delivery: WindowsDelivery): void {
    const handler = (): void => FakeNotification.reportActivation(details)
    const steps =
      delivery.instance === false
        ? [handler]
        : delivery.order === 'handler-first'
          ? [handler, instanceEvent]
          : [instanceEvent, handler]
    for (const step of steps) step()
  }

  /**
   * The activation arguments Windows hands back: those written in the custom `toastXml` (which must
   * keep Electron's `type=action&action=N&tag=` / `type=reply&tag=` and the input id `reply`), else
   * Electron's own, whose tag is the hash of the notification's id.
   */
  private windowsArguments(type: 'click' | 'action' | 'reply', index = 0): string {
    if (this.toastXml === '') {
      const tag = fakeFastHash(this.id)
      return type === 'click'
        ? ''
        : type === 'action'
          ? `type=action&action=${index}&tag=${tag}`
          : `type=reply&tag=${tag}`
    }
    const xml = this.toastXml
    if (type === 'click') return unescapeXml(/<toast[^>]*\slaunch="([^"]*)"/.exec(xml)?.[1] ?? '')
    const actions = [...xml.matchAll(/<action\s([^>]*)\/>/g)].map((m) => m[1] ?? '')
    const attr = (attrs: string, name: string): string | undefined => {
      const found = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs)?.[1]
      return found === undefined ? undefined : unescapeXml(found)
    }
    if (type === 'reply') {
      if (!/<input\s[^>]*id="reply"[^>]*type="text"/.test(xml))
        throw new Error('fake electron: the toast XML has no text input with id "reply"')
      const send = actions.find((attrs) => attr(attrs, 'hint-inputId') === 'reply')
      const args = send && attr(send, 'arguments')
      if (!args || !/^type=reply&tag=[^&]+$/.test(args))
        throw new Error(`fake electron: the toast's reply action lacks Electron's arguments: ${send ?? 'none'}`)
      return args
    }
    const buttons = actions.filter((attrs) => attr(attrs, 'hint-inputId') === undefined)
    const button = buttons[index]
    const args = button && attr(button, 'arguments')
    if (!args || !new RegExp(`^type=action&action=${index}&tag=[^&]+$`).test(args)) {
      throw new Error(`fake electron: the toast has no button ${index} with Electron's arguments`)
    }
    return args
  }
}
registerFake(FakeNotification, 'typeof Notification')
export type FakeNotificationIsElectron = Assert<
  ElectronMembersOnly<
    FakeNotification,
    Electron.Notification,
    'shown' | 'closed' | 'options' | 'pressButton' | 'sendReply' | 'clickBody' | 'deliver' | 'windowsArguments'
  >
>
export type FakeNotificationClassIsElectron = Assert<
  ElectronMembersOnly<
    typeof FakeNotification,
    typeof Electron.Notification,
    'instances' | 'supported' | 'activationHandler' | 'queuedActivations' | 'removed' | 'reset' | 'reportActivation'
  >
>
