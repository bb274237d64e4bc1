import { randomBytes } from 'node:crypto'
import type * as Electron from 'electron'
import { sameAgent } from '../../shared'
import type { Ask, Settings } from '../../shared'
import type { DesktopCompanion } from './companion'
import type { Platform } from './electron-api'
import { answerFor } from './notification-input'
import type { NotificationInput } from './notification-input'
import { sendAnswer } from './notification-send'
import { controlsFor } from './notification-controls'
import type { Controls } from './notification-controls'
import { ActivationLedger } from './notification-ledger'
import type { ActivationSource } from './notification-ledger'
import {
  askNotificationText,
  BODY_LIMIT,
  burstNotificationText,
  controlsText,
  noticeNotificationText,
  truncate,
} from './notification-text'
import type { Strings } from './strings'
import { parseActivation, toastXml } from './windows-toast'

/** Asks arriving within this many ms of the first one are grouped into one notification. */
export const BURST_WINDOW_MS = 1500
/**
 * A button or reply arriving within this many ms of its notification being shown does not answer
 * (it was meant for whatever was there a moment before): the window opens at the ask instead.
 * The window's cards arm for the same time (renderer/src/state/arming.svelte.ts).
 */
export const NOTIFICATION_ARMING_MS = 600

export interface NotificationsOptions {
  Notification: typeof Electron.Notification
  companion: DesktopCompanion
  /** Which answer controls notifications may carry (none on Linux); default `process.platform`. */
  platform?: Platform
  settings(): Settings
  strings(): Strings
  /** Whether the question window has the focus. */
  windowFocused(): boolean
  /** The ask the window reports it shows (`companion:shown`), if any. */
  shownAskId(): string | undefined
  /** The person clicked the notification of this ask (the first ask of a grouped one). */
  onClick(askId: string): void
  /** The person clicked a notification of no ask this run knows (a follow-up, or one from before a restart). */
  onOpen?(): void
  burstWindowMs?: number
  /** Default {@link NOTIFICATION_ARMING_MS}. */
  armingMs?: number
  /** Milliseconds since some fixed point (default `Date.now`); only differences are used. */
  now?: () => number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

/** A notification on screen (or in the Notification / Action Center), kept referenced so its events fire. */
interface Shown {
  tag: string
  askId: string | undefined
  controls: Controls
  notification: Electron.Notification
  /** When it was shown (`now()`): its controls answer only `armingMs` later. */
  shownAt: number
}

/**
 * Native notifications for new asks. One per ask: the agent's name as title, header and first question
 * as body; silent when the sound setting is off. None while notifications are off, Do not disturb is
 * on, or the person already sees that agent ({@link personSeesAgentOf}).
 *
 * A lone ask that qualifies for answer controls (notification-controls.ts: buttons or a reply, macOS
 * and Windows) is shown at once with them; any other first ask is held `burstWindowMs`, and asks
 * arriving within that window of the first are shown together as one notification without controls
 * ("3 questions from 2 agents"); an ask settled before its notification is due is left out.
 *
 * A button or reply answers through the window's path (notification-send.ts), but only once the
 * notification has been shown `armingMs` (600): one sooner opens the window at the ask and sends
 * nothing (a press meant for the notification that was there before). An ask no longer
 * pending gets a "no longer waiting" follow-up and nothing is sent; an empty reply or a button that was
 * never offered gets a "still waiting" follow-up with the same controls. Each activation is taken once
 * (notification-ledger.ts). When an ask settles anywhere, its notifications are closed (and on macOS
 * removed from Notification Center). Returns the unsubscribe function.
 */
export function setupNotifications(options: NotificationsOptions): () => void {
  const { Notification, companion } = options
  const platform = options.platform ?? process.platform
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = options.clearTimeout ?? ((handle) => clearTimeout(handle as NodeJS.Timeout))
  const windowMs = options.burstWindowMs ?? BURST_WINDOW_MS
  const armingMs = options.armingMs ?? NOTIFICATION_ARMING_MS
  const now = options.now ?? ((): number => Date.now())
  // Tags are fresh per run, so a toast left from an earlier run never names an ask of this one.
  const run = randomBytes(4).toString('hex')
  let count = 0
  let held: Ask[] = []
  let timer: unknown
  // Electron drops a notification's handlers when the object is garbage-collected: keep them.
  const live = new Map<string, Shown>()
  const ledger = new ActivationLedger()

  const quiet = (): boolean => {
    const settings = options.settings()
    return !settings.notifications || settings.doNotDisturb || !Notification.isSupported()
  }

  const present = (askId: string | undefined, text: { title: string; body: string }, controls: Controls): void => {
    if (quiet()) return
    count += 1
    const tag = `au${run}n${count}`
    const notification = new Notification(
      constructorOptions(platform, tag, text, controls, options.settings().sound, options.strings()),
    )
    const shown: Shown = { tag, askId, controls, notification, shownAt: now() }
    live.set(tag, shown)
    ledger.register(tag, askId)
    const forget = (): void => void live.delete(tag)
    notification.on('click', () => activate(tag, 'instance', undefined))
    if (controls.kind === 'buttons')
      notification.on('action', (details) =>
        activate(tag, 'instance', { kind: 'action', actionIndex: details.actionIndex }),
      )
    if (controls.kind === 'reply')
      notification.on('reply', (details) => activate(tag, 'instance', { kind: 'reply', reply: details.reply }))
    // A toast with controls stays answerable in the Action Center after Windows reports `close`
    // (its timeout): keep it until its ask settles.
    if (controls.kind === 'none') notification.on('close', forget)
    if (platform !== 'linux') notification.on('failed', forget)
    notification.show()
  }

  const showAsk = (ask: Ask): void => present(ask.askId, askNotificationText(ask), controlsFor(ask, platform))

  const followUp = (ask: Ask | undefined, kind: 'no-longer-waiting' | 'still-waiting'): void => {
    const strings = options.strings()
    if (kind === 'no-longer-waiting' || !ask) {
      present(
        undefined,
        { title: ask ? askNotificationText(ask).title : strings.appName, body: strings.noLongerWaiting },
        { kind: 'none', reason: 'follow-up' },
      )
      return
    }
    const text = askNotificationText(ask)
    present(
      ask.askId,
      { title: text.title, body: truncate(`${strings.stillWaiting} ${text.body}`, BODY_LIMIT) },
      controlsFor(ask, platform),
    )
  }

  const activate = (tag: string, source: ActivationSource, input: NotificationInput | undefined): void => {
    if (!ledger.take(tag, source)) return // the other half of an activation already taken
    const askId = ledger.askOf(tag)
    if (input === undefined) {
      if (askId !== undefined) options.onClick(askId)
      else options.onOpen?.()
      return
    }
    const ask = askId === undefined ? undefined : companion.pending().find((pending) => pending.askId === askId)
    if (!ask) return followUp(undefined, 'no-longer-waiting')
    // Too soon after it appeared to be meant for it: nothing is sent; the window opens at the ask (its
    // card arms there too) and the notification stays answerable.
    const shownAt = live.get(tag)?.shownAt
    if (shownAt !== undefined && now() - shownAt < armingMs) return options.onClick(ask.askId)
    const result = answerFor(ask, controlsFor(ask, platform), input)
    if (!result.ok)
      return result.refusal === 'no-controls' ? options.onClick(ask.askId) : followUp(ask, 'still-waiting')
    const sent = sendAnswer(companion, ask.askId, result.answers)
    if (!sent.ok) followUp(ask, sent.code === 'NOT_PENDING' ? 'no-longer-waiting' : 'still-waiting')
  }

  const flush = (): void => {
    timer = undefined
    const asks = held
    held = []
    const [first] = asks
    if (!first) return
    if (asks.length === 1) showAsk(first)
    else
      present(first.askId, burstNotificationText(asks, options.strings()), {
        kind: 'none',
        reason: 'several-questions',
      })
  }

  const offAdded = companion.on('added', (ask) => {
    if (quiet() || personSeesAgentOf(ask, options)) return
    if (timer === undefined && controlsFor(ask, platform).kind !== 'none') {
      showAsk(ask) // a lone ask that can be answered in place is not kept waiting
    } else {
      held.push(ask)
    }
    timer ??= setTimer(flush, windowMs)
  })
  // A notice (the agent waits for input, its turn ended) has nothing to answer: a click opens the window.
  const offNotice = companion.on('notice', (notice) => {
    if (quiet() || personSeesAgent(notice.agent, options)) return
    present(undefined, noticeNotificationText(notice), { kind: 'none', reason: 'notice' })
  })
  const offResolved = companion.on('resolved', (askId) => {
    held = held.filter((ask) => ask.askId !== askId)
    for (const shown of [...live.values()]) {
      if (shown.askId !== askId) continue
      live.delete(shown.tag)
      shown.notification.close() // on Windows this also removes it from the Action Center
      if (platform === 'darwin') Notification.remove(shown.tag) // and from Notification Center
    }
  })
  if (platform === 'win32') {
    Notification.handleActivation((details) => {
      const { tag, input } = parseActivation(details)
      // Electron's own toasts (no controls) carry no tag of ours: their click reaches the instance.
      if (tag !== undefined) activate(tag, 'handler', input)
      else if (live.size === 0) options.onOpen?.()
    })
  }

  return () => {
    offAdded()
    offNotice()
    offResolved()
    if (platform === 'win32') Notification.handleActivation(() => {})
    if (timer !== undefined) clearTimer(timer)
    held = []
    for (const shown of live.values()) shown.notification.close()
    live.clear()
  }
}

/** The constructor options of one notification: its id (macOS, Windows), text, sound and controls. */
function constructorOptions(
  platform: Platform,
  tag: string,
  text: { title: string; body: string },
  controls: Controls,
  sound: boolean,
  strings: Strings,
): Electron.NotificationConstructorOptions {
  const base: Electron.NotificationConstructorOptions = { ...text, silent: !sound }
  if (platform !== 'darwin' && platform !== 'win32') return base
  const { buttons, placeholder } = controlsText(controls)
  const withControls: Electron.NotificationConstructorOptions = {
    ...base,
    id: tag,
    ...(buttons.length > 0 ? { actions: buttons.map((label) => ({ type: 'button' as const, text: label })) } : {}),
    ...(placeholder !== undefined ? { hasReply: true, replyPlaceholder: placeholder } : {}),
  }
  if (platform !== 'win32' || controls.kind === 'none') return withControls
  return {
    ...withControls,
    toastXml: toastXml({
      ...text,
      silent: !sound,
      tag,
      buttons,
      replyLabel: strings.reply,
      ...(placeholder !== undefined ? { placeholder } : {}),
    }),
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
export function personSeesAgentOf(
  ask: Ask,
  view: Pick<NotificationsOptions, 'windowFocused' | 'shownAskId' | 'companion'>,
): boolean {
  return personSeesAgent(ask.agent, view)
}

/** The window has the focus and shows an ask of `agent`. */
function personSeesAgent(
  agent: Ask['agent'],
  view: Pick<NotificationsOptions, 'windowFocused' | 'shownAskId' | 'companion'>,
): boolean {
  if (!view.windowFocused()) return false
  const shown = view.shownAskId()
  if (shown === undefined) return false
  const shownAsk = view.companion.pending().find((pending) => pending.askId === shown)
  return shownAsk !== undefined && sameAgent(shownAsk.agent, agent)
}
