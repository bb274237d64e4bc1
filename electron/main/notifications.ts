import type * as Electron from 'electron'
import type { AgentInfo, Ask, Settings } from '../../shared'
import type { DesktopCompanion } from './companion'
import { askNotificationText, burstNotificationText } from './notification-text'
import type { Strings } from './strings'

/** Asks arriving within this many ms of the first one are grouped into one notification. */
export const BURST_WINDOW_MS = 1500

export interface NotificationsOptions {
  Notification: typeof Electron.Notification
  companion: DesktopCompanion
  settings(): Settings
  strings(): Strings
  /** True when the person already sees this ask (the window is focused): no notification. */
  isShowing(ask: Ask): boolean
  /** The person clicked the notification of this ask (the first ask of a grouped one). */
  onClick(askId: string): void
  burstWindowMs?: number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

/**
 * One native notification per new ask: the agent's name as title, header and first question (cut at
 * 120 characters) as body; silent when the sound setting is off. None while notifications are off, Do
 * not disturb is on, or the person is looking at the window. Asks arriving within `burstWindowMs` of
 * the first are held and shown as one notification ("3 questions from 2 agents"); an ask settled
 * before its notification is due is left out. Returns the unsubscribe function.
 */
export function setupNotifications(options: NotificationsOptions): () => void {
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = options.clearTimeout ?? ((handle) => clearTimeout(handle as NodeJS.Timeout))
  const windowMs = options.burstWindowMs ?? BURST_WINDOW_MS
  let held: Ask[] = []
  let timer: unknown
  // Electron drops a notification's click handler when the object is garbage-collected: keep them.
  const live = new Set<Electron.Notification>()

  const quiet = (): boolean => {
    const settings = options.settings()
    return !settings.notifications || settings.doNotDisturb || !options.Notification.isSupported()
  }

  const show = (asks: Ask[]): void => {
    const first = asks[0]
    if (!first || quiet()) return
    const text = asks.length === 1 ? askNotificationText(first) : burstNotificationText(asks, options.strings())
    const notification = new options.Notification({ ...text, silent: !options.settings().sound })
    live.add(notification)
    const forget = (): void => void live.delete(notification)
    notification.on('click', () => {
      forget()
      options.onClick(first.askId)
    })
    notification.on('close', forget)
    notification.on('failed', forget)
    notification.show()
  }

  const flush = (): void => {
    timer = undefined
    const asks = held
    held = []
    show(asks)
  }

  const offAdded = options.companion.on('added', (ask) => {
    if (quiet() || options.isShowing(ask)) return
    held.push(ask)
    if (timer === undefined) timer = setTimer(flush, windowMs)
  })
  const offResolved = options.companion.on('resolved', (askId) => {
    held = held.filter((ask) => ask.askId !== askId)
  })

  return () => {
    offAdded()
    offResolved()
    if (timer !== undefined) clearTimer(timer)
    held = []
    for (const notification of live) notification.close()
    live.clear()
  }
}

/** True when two asks come from the same agent (same name, pid, cwd and title). */
export function sameAgent(a: AgentInfo | undefined, b: AgentInfo): boolean {
  return a !== undefined && a.name === b.name && a.pid === b.pid && a.cwd === b.cwd && a.title === b.title
}
