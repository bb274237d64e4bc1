// "Add a phone" in the desktop window: main runs the desktop's side of pairing (relay/home/pair-device.ts
// in phone mode) and talks to the window over its own IPC channels only. The UI channel never carries any
// of it (shared/ui.ts ANSWERER_CHANGES), so a served page or a script holding the window credential
// cannot start a pairing or confirm one: only the person at this window can.
import type * as Electron from 'electron'
import { IPC_CHANNELS, PhonePairDecisionSchema, type PhonePairState } from '../../shared/ipc'
import { pairDevice, type PairDeviceOptions } from '../../relay/home/pair-device'
import { ipcSenderCheck } from './ipc-sender'

/** One pairing in progress: its id once offered, the pending decision, and its Cancel (aborts the run). */
interface PairingRun {
  pairId?: string
  decide?: (confirm: boolean) => void
  cancel: AbortController
}

export interface PhonePairingOptions {
  ipcMain: Electron.IpcMain
  /** The one window allowed to pair. */
  window: Electron.BrowserWindow
  /** The companion's home (the first desktop's relay files). */
  home: string
  /** True when `url` is our page (see content.ts `isAppUrl`). */
  isAppUrl(url: string): boolean
  /** Called with a reason for each refused message (default: console.warn). */
  onRefused?(reason: string): void
  /** The pairing run (tests pass their own); default {@link pairDevice}. */
  pair?: (options: PairDeviceOptions) => Promise<{ member: { name: string } }>
}

/**
 * Listens on `companion:phone-pair-start` and `companion:phone-pair-decide` from the window's main frame
 * showing our page only (the same sender check as ipc-hub.ts), runs one pairing at a time and sends
 * each `PhonePairState` on `companion:phone-pair-state`. A decision for another pairing id, a confirm
 * before a phone asked, or a second start while one runs, is refused; declining before a phone asked
 * cancels: the offer is withdrawn on the relay at once, so a phone that scans it later is told "cancelled
 * on the desktop". Returns the disposer, which cancels a pairing still running.
 */
export function setupPhonePairing(options: PhonePairingOptions): () => void {
  const { ipcMain, window } = options
  const contents = window.webContents
  const refuse = options.onRefused ?? ((reason: string) => console.warn(`ipc: refused: ${reason}`))
  const pair = options.pair ?? pairDevice
  let running: PairingRun | undefined

  const send = (state: PhonePairState): void => {
    if (!contents.isDestroyed()) contents.send(IPC_CHANNELS.phonePairState, state)
  }
  const trusted = ipcSenderCheck(contents, options.isAppUrl, refuse, 'phone pairing: ')

  const onStart = (event: Electron.IpcMainEvent): void => {
    if (!trusted(event)) return
    if (running) return refuse('phone pairing: one is already running')
    const run: PairingRun = { cancel: new AbortController() }
    running = run
    pair({
      home: options.home,
      signal: run.cancel.signal,
      showPhoneLink: (link, offer) => {
        run.pairId = offer.pairId
        send({ state: 'offer', pairId: offer.pairId, link, expiresAt: offer.expiresAt })
      },
      confirm: (request, code) => {
        if (run.cancel.signal.aborted) return Promise.resolve(false)
        return new Promise<boolean>((resolve) => {
          run.decide = resolve
          send({ state: 'confirm', pairId: run.pairId ?? '', name: request.member.name, code })
        })
      },
    })
      .then(
        (paired) => send({ state: 'paired', pairId: run.pairId ?? '', name: paired.member.name }),
        (error: unknown) => {
          const { code, message } = error as { code?: unknown; message?: unknown }
          const stableCode = typeof code === 'string' ? code : 'RELAY_PAIR_FAILED'
          // The person's own Cancel: the window has already left this pairing.
          if (stableCode === 'RELAY_PAIR_CANCELLED' && run.cancel.signal.aborted) return
          send({
            state: 'stopped',
            ...(run.pairId !== undefined ? { pairId: run.pairId } : {}),
            code: stableCode,
            message: typeof message === 'string' ? message : String(error),
            alarm: stableCode === 'RELAY_PAIR_SECOND_REQUEST' || stableCode === 'RELAY_PAIR_MAC',
          })
        },
      )
      .finally(() => {
        if (running === run) running = undefined
      })
  }

  const onDecide = (event: Electron.IpcMainEvent, payload: unknown): void => {
    if (!trusted(event)) return
    const parsed = PhonePairDecisionSchema.safeParse(payload)
    if (!parsed.success) return refuse('phone pairing: invalid decision')
    if (!running || running.pairId !== parsed.data.pairId)
      return refuse('phone pairing: a decision for a pairing that is not running')
    const run = running
    if (run.decide === undefined) {
      // Cancelled while the QR is still up: the run withdraws the offer on the relay and stops
      // listening; a new "Add a phone" may start meanwhile.
      if (parsed.data.confirm) return refuse('phone pairing: nothing to confirm yet')
      run.cancel.abort()
      running = undefined
      return
    }
    run.decide(parsed.data.confirm)
    run.decide = undefined
  }

  ipcMain.on(IPC_CHANNELS.phonePairStart, onStart)
  ipcMain.on(IPC_CHANNELS.phonePairDecide, onDecide)
  return () => {
    ipcMain.removeListener(IPC_CHANNELS.phonePairStart, onStart)
    ipcMain.removeListener(IPC_CHANNELS.phonePairDecide, onDecide)
    if (running) {
      running.decide?.(false)
      running.cancel.abort()
    }
  }
}
