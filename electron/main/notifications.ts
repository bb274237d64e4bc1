import type * as Electron from 'electron'
import { sameAgent } from '../../shared'
import type { Ask, Settings } from '../../shared'
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
  /** Whether the question window has the focus. */
  windowFocused(): boolean
  /** The ask the window reports it shows (`companion:shown`), if any. */
  shownAskId(): string | undefined
  /** The person clicked the notification of this ask (the first ask of a grouped one). */
  onClick(askId: string): void
  burstWindowMs?: number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

/**
 * One native notification per new ask: the agent's name as title, header and first question (cut at
 * 120 characters) as body; silent when the sound setting is off. None while notifications are off, Do
 * not disturb is on, or the person already sees that agent ({@link personSeesAgentOf}). Asks arriving within `burstWindowMs` of
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
    if (quiet() || personSeesAgentOf(ask, options)) return
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

/**
 * The person already sees this ask's agent: the window is focused and has reported (`companion:shown`)
 * a pending ask of the same agent on screen. Anything less notifies: a focused window that has not
 * reported yet (still loading, reloading, or its renderer crashed), one that reports none (its history
 * view, or an empty inbox), or one whose reported ask was settled meanwhile, since in each of those the
 * new ask may never reach the screen and a redundant notification costs less than a missed one.
 * Another agent's ask notifies too: the card the person is working on never switches under them.
 */
export function personSeesAgentOf(ask: Ask, view: Pick<NotificationsOptions, 'windowFocused' | 'shownAskId' | 'companion'>): boolean {
  if (!view.windowFocused()) return false
  const shown = view.shownAskId()
  if (shown === undefined) return false
  const shownAsk = view.companion.pending().find((pending) => pending.askId === shown)
  return shownAsk !== undefined && sameAgent(shownAsk.agent, ask.agent)
}
