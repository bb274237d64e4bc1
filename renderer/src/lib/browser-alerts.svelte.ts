import type { CompanionBridge } from '../../../shared/bridge'
import { askNotificationText, noticeNotificationText } from '../../../shared/notification-text'
import type { UiServerFrame } from '../../../shared/ui'

/** The page's sound setting in localStorage ("1": on); absent or anything else: off. */
export const SOUND_KEY = 'ask-user.alert-sound'

/** What the browser gives the alerts (injected in tests; defaults are the page's own). */
export interface AlertHost {
  Notification?: typeof Notification
  storage?: Storage
  /** True while the person is looking at this tab: then nothing pops up (the page itself shows it). */
  watching: () => boolean
  /** Plays the alert sound (default: a short tone through Web Audio). */
  beep: () => void
}

/** Where the Notification API stands for this page; `unsupported` where the browser has none. */
export type AlertPermission = NotificationPermission | 'unsupported'

/**
 * The served page's alerts, like the desktop's: a browser notification per new ask or notice, with the
 * same plain text as the desktop's native notifications (shared/notification-text.ts: hidden characters
 * as markers, cut to size; never an answer), and an optional sound. Permission is asked only from a
 * click ({@link requestPermission}), never on load. Asks a snapshot or its rest brings are not new.
 * The desktop window has native notifications instead and does not use this.
 */
export class BrowserAlerts {
  permission = $state<AlertPermission>('unsupported')
  sound = $state(false)
  readonly #host: AlertHost
  #restUntil: number | undefined
  #openAsk: (askId: string) => void = () => undefined

  constructor(host: AlertHost) {
    this.#host = host
    this.permission = host.Notification ? host.Notification.permission : 'unsupported'
    this.sound = readSound(host.storage)
  }

  /**
   * Follows the companion's frames (a listener of the page's bridge). `openAsk` brings an ask into
   * view when the person clicks its notification (the desktop's notifications do the same).
   */
  listen(bridge: Pick<CompanionBridge, 'onFrame'>, openAsk: (askId: string) => void = () => undefined): () => void {
    this.#openAsk = openAsk
    return bridge.onFrame((frame) => this.#frame(frame))
  }

  /** Asks the browser for permission to notify: call it only from the person's click. */
  async requestPermission(): Promise<void> {
    const api = this.#host.Notification
    if (!api || this.permission !== 'default') return
    this.permission = await api.requestPermission()
  }

  /** Turns the sound on or off, kept in localStorage for this page's origin. */
  setSound(on: boolean): void {
    this.sound = on
    try {
      if (on) this.#host.storage?.setItem(SOUND_KEY, '1')
      else this.#host.storage?.removeItem(SOUND_KEY)
    } catch {
      // Storage refused (private mode, quota): the setting holds for this page only.
    }
    if (on) this.#host.beep()
  }

  #frame(frame: UiServerFrame): void {
    if (frame.type === 'snapshot') this.#restUntil = frame.restUntil
    else if (frame.type === 'ask/added') {
      if (this.#restUntil !== undefined && frame.ask.receivedAt <= this.#restUntil) return
      const askId = frame.ask.askId
      this.#alert(askNotificationText(frame.ask), `ask:${askId}`, () => this.#openAsk(askId))
    } else if (frame.type === 'notice/added') {
      this.#alert(noticeNotificationText(frame.notice), `notice:${frame.notice.noticeId}`)
    }
  }

  #alert(text: { title: string; body: string }, tag: string, onClick: () => void = () => undefined): void {
    if (this.#host.watching()) return
    if (this.sound) this.#host.beep()
    const api = this.#host.Notification
    if (!api || this.permission !== 'granted') return
    try {
      const shown = new api(text.title, { body: text.body, tag })
      shown.onclick = () => {
        window.focus()
        onClick()
        shown.close()
      }
    } catch {
      // Some browsers allow notifications only from a service worker: the title count and sound remain.
    }
  }
}

function readSound(storage: Storage | undefined): boolean {
  try {
    return storage?.getItem(SOUND_KEY) === '1'
  } catch {
    return false
  }
}

let audio: AudioContext | undefined

/** A short, soft two-note tone (no file to load). */
export function playTone(): void {
  try {
    audio ??= new AudioContext()
    const start = audio.currentTime
    for (const [offset, frequency] of [
      [0, 880],
      [0.16, 660],
    ] as const) {
      const oscillator = audio.createOscillator()
      const gain = audio.createGain()
      oscillator.frequency.value = frequency
      gain.gain.setValueAtTime(0.08, start + offset)
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.15)
      oscillator.connect(gain).connect(audio.destination)
      oscillator.start(start + offset)
      oscillator.stop(start + offset + 0.15)
    }
  } catch {
    // No audio here: the notification and the title count remain.
  }
}

/** The page's own host: its Notification API, localStorage, focus and Web Audio. */
export function pageAlertHost(): AlertHost {
  let storage: Storage | undefined
  try {
    storage = window.localStorage
  } catch {
    storage = undefined
  }
  return {
    ...('Notification' in window ? { Notification: window.Notification } : {}),
    ...(storage ? { storage } : {}),
    watching: () => document.visibilityState === 'visible' && document.hasFocus(),
    beep: playTone,
  }
}
