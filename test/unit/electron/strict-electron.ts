// The strict side of the fake electron module: code under test never touches a fake itself, only its
// "Electron view", a Proxy that lets through nothing Electron 45 lacks. Reading a member the typings
// do not declare, subscribing to an event the object never emits, assigning a read-only property or
// (when a test plays an OS) using a member documented for other platforms only throws a
// `fake electron: ...` error, so a typo in product code fails its test. Tests keep the raw fakes,
// with their recording helpers; the view maps fakes to views on the way out and back on the way in.
import { EventEmitter } from 'node:events'
import type * as Electron from 'electron'
import { electronCatalog } from './electron-45-api'
import type { ApiShape } from './electron-45-api'

/** Every Electron type the fakes stand for, by the name the catalog knows it under. */
export interface ElectronApis {
  App: Electron.App
  BrowserWindow: Electron.BrowserWindow
  'typeof BrowserWindow': typeof Electron.BrowserWindow
  WebContents: Electron.WebContents
  WebFrameMain: Electron.WebFrameMain
  Tray: Electron.Tray
  'typeof Tray': typeof Electron.Tray
  Menu: Electron.Menu
  'typeof Menu': typeof Electron.Menu
  Notification: Electron.Notification
  'typeof Notification': typeof Electron.Notification
  NativeImage: Electron.NativeImage
  'typeof NativeImage': typeof Electron.nativeImage
  NativeTheme: Electron.NativeTheme
  IpcMain: Electron.IpcMain
  IpcRenderer: Electron.IpcRenderer
  ContextBridge: Electron.ContextBridge
  Dialog: Electron.Dialog
  Session: Electron.Session
  'typeof Session': typeof Electron.session
  WebRequest: Electron.WebRequest
  Screen: Electron.Screen
  Net: Electron.Net
  Shell: Electron.Shell
}

/** The name of one Electron type a fake stands for (`typeof X`: the class itself, its static side). */
export type ApiKind = keyof ElectronApis

/**
 * Compile-time guard for a fake class: `true` when every public member of `Fake` is a member of the
 * Electron type `Real` or one of the test helpers named in `Helpers`; otherwise an object type naming
 * the offenders, which fails `Assert` (so a fake cannot invent an Electron API).
 */
export type ElectronMembersOnly<Fake, Real, Helpers extends PropertyKey = never> = [
  Exclude<keyof Fake, keyof Real | Helpers>,
] extends [never]
  ? true
  : { 'not Electron 45 APIs': Exclude<keyof Fake, keyof Real | Helpers> }

/** Fails to compile unless `T` is `true` (see `ElectronMembersOnly`). */
export type Assert<T extends true> = T

/** Names that runtimes and test tooling probe on any object; a real Electron object just lacks them. */
const PROBES = new Set([
  'then',
  'toJSON',
  'asymmetricMatch',
  '$$typeof',
  'nodeType',
  'tagName',
  '@@__IMMUTABLE_ITERABLE__@@',
  '@@__IMMUTABLE_RECORD__@@',
])
/** EventEmitter methods whose first argument is an event name. */
const EVENT_ARGUMENT = new Set([
  'on',
  'once',
  'off',
  'addListener',
  'prependListener',
  'prependOnceListener',
  'removeListener',
  'removeAllListeners',
  'listeners',
  'rawListeners',
  'listenerCount',
  'emit',
])

const kinds = new WeakMap<object, ApiKind>()
const views = new WeakMap<object, object>()
const raws = new WeakMap<object, object>()
let played: NodeJS.Platform | undefined

/** The catalog shape a kind stands for. */
function shapeOf(kind: ApiKind): ApiShape {
  const catalog = electronCatalog()
  return kind.startsWith('typeof ') ? catalog.statics(kind.slice('typeof '.length)) : catalog.instance(kind)
}

/** Marks `raw` as the fake of one Electron type; returns it. */
export function registerFake<T extends object>(raw: T, kind: ApiKind): T {
  kinds.set(raw, kind)
  return raw
}

/**
 * The platform the current test plays (as `process.platform`): members documented for other
 * platforms only then throw. `undefined` (the default after `resetFakeElectron()`) checks none.
 */
export function playPlatform(platform: NodeJS.Platform | undefined): void {
  played = platform
}

/** The platform the current test plays (see {@link playPlatform}). */
export function playedPlatform(): NodeJS.Platform | undefined {
  return played
}

/** The Electron view of a registered fake (or of anything else: returned as it is). */
export function toView<T>(value: T): T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value
  const kind = kinds.get(value)
  if (kind === undefined) return value
  let view = views.get(value)
  if (!view) {
    view = new Proxy(value, handler(kind))
    views.set(value, view)
    raws.set(view, value)
  }
  return view as T
}

/** The raw fake behind a view (anything else is returned as it is). */
export function toRaw<T>(value: T): T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value
  return (raws.get(value) as T | undefined) ?? value
}

/** The Electron view of `raw`, typed as the Electron type it stands for; throws when it is not that fake. */
export function asElectron<K extends ApiKind>(raw: object, kind: K): ElectronApis[K] {
  if (kinds.get(toRaw(raw)) !== kind) throw new Error(`fake electron: this object is not a fake ${kind}`)
  return toView(toRaw(raw)) as ElectronApis[K]
}

/** Throws unless the object that `kind` stands for emits `event` in Electron 45. */
export function assertEvent(kind: ApiKind, event: unknown): void {
  const shape = shapeOf(kind)
  if (typeof event !== 'string' || shape.events === undefined || shape.events.has(event)) return
  throw new Error(`fake electron: ${shape.label} does not emit '${event}' in Electron ${electronCatalog().version}`)
}

function assertMember(shape: ApiShape, name: string): void {
  const member = shape.members.get(name)
  const version = electronCatalog().version
  if (!member) throw new Error(`fake electron: ${shape.label}.${name} is not an Electron ${version} API`)
  if (played && member.platforms && !member.platforms.includes(played)) {
    throw new Error(
      `fake electron: ${shape.label}.${name} is an Electron ${version} API for ${member.platforms.join(',')} only; this test plays ${played}`,
    )
  }
}

function handler(kind: ApiKind): ProxyHandler<object> {
  const shape = shapeOf(kind)
  const wrap =
    (name: string, method: (...args: unknown[]) => unknown, target: object) =>
    (...args: unknown[]): unknown => {
      if (EVENT_ARGUMENT.has(name)) assertEvent(kind, args[0])
      return toView(method.apply(target, args.map(toRaw)))
    }
  return {
    get(target, name) {
      if (typeof name === 'symbol' || PROBES.has(name)) return Reflect.get(target, name)
      assertMember(shape, name)
      if (!(name in target)) {
        throw new Error(
          `fake electron: ${shape.label}.${name} is an Electron ${electronCatalog().version} API the fake does not implement`,
        )
      }
      const value: unknown = Reflect.get(target, name)
      if (typeof value === 'function' && !kinds.has(value))
        return wrap(name, value as (...args: unknown[]) => unknown, target)
      return toView(value)
    },
    set(target, name, value) {
      if (typeof name === 'symbol') return Reflect.set(target, name, value)
      assertMember(shape, name)
      if (shape.members.get(name)?.readonly)
        throw new Error(`fake electron: ${shape.label}.${name} is read-only in Electron ${electronCatalog().version}`)
      return Reflect.set(target, name, toRaw(value))
    },
    has(target, name) {
      return typeof name === 'symbol' ? Reflect.has(target, name) : shape.members.has(name)
    },
    construct(target, args) {
      return toView(Reflect.construct(target as new (...args: unknown[]) => object, args.map(toRaw)))
    },
  }
}

/**
 * Base of the fakes that are EventEmitters in Electron. Emitting (by a test, or by the fake itself)
 * an event Electron 45 never emits on that object throws, and the listeners receive views, never the
 * raw fakes.
 */
export class FakeEmitter extends EventEmitter {
  constructor(kind: ApiKind) {
    super()
    registerFake(this, kind)
  }
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    const kind = kinds.get(this)
    if (kind) assertEvent(kind, event)
    return super.emit(event, ...args.map(toView))
  }
}
