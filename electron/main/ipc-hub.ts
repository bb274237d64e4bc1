import type * as Electron from 'electron'
import {
  IPC_CHANNELS,
  OpenLinkRequestSchema,
  RelayChangeRequestSchema,
  ShownAskReportSchema,
  type RelayChange,
  type RelayChangeResult,
} from '../../shared/ipc'
import { safeLinkUrl } from '../../shared/markdown/url-gate'
import { parseWindowFrame } from '../../core/ui-frames'
import type { UiServerFrame } from '../../shared'
import type { WindowHandle } from '../../core'
import type { DesktopCompanion } from './companion'
import type { RelayChangeOutcome } from './relay-changes'
import { ipcSenderCheck } from './ipc-sender'

/** The relay between the question window (IPC) and the companion's UI channel. */
export interface IpcHub {
  /** Asks the window to bring one pending ask into view (sent now, or right after it subscribes). */
  focusAsk(askId: string): void
  /** The ask the window last reported on screen (undefined: none, or not reported yet). */
  shownAskId(): string | undefined
  /** Detaches the window and removes every IPC listener. */
  dispose(): void
}

export interface IpcHubOptions {
  ipcMain: Electron.IpcMain
  /** The one window allowed to talk to main. */
  window: Electron.BrowserWindow
  companion: DesktopCompanion
  /** True when `url` is our page (see content.ts `isAppUrl`). */
  isAppUrl(url: string): boolean
  /** Called with a reason for each refused message (default: console.warn). */
  onRefused?(reason: string): void
  /**
   * Asks the person and opens a link from agent text (see external-links.ts); called only with a URL
   * that passed the gate here, in main. Without it, `companion:open-link` is refused.
   */
  openLink?(url: string): void
  /**
   * Applies one change the person made in the Relay view (relay-changes.ts); never rejects. Without it,
   * `companion:relay-change` is answered `RELAY_CHANGE_UNAVAILABLE`.
   */
  changeRelay?(change: RelayChange): Promise<RelayChangeOutcome>
}

/**
 * Listens on the `companion:` channels only, and only to our window's main frame showing our page:
 * a message from another webContents, a sub-frame or a foreign origin is dropped. `companion:send`
 * payloads are checked here, once, with the UI channel's own check (`parseWindowFrame`, as the UI
 * socket does at its edge) and reach the core typed; a refusal reads the same as on the UI socket (an
 * `ask/rejected` frame when it names an ask, so the window is not left waiting).
 * `companion:subscribe` (re)attaches the window, which sends a fresh `snapshot`: a reload or a crashed
 * renderer loses nothing; a fault of the core while handling the window's frame re-attaches it too. `companion:open-link` URLs pass the URL gate again here (absolute http/https
 * only), whatever the renderer checked, before `openLink` asks the person. `companion:relay-change`
 * requests are parsed here and applied one at a time by `changeRelay`; each gets one
 * `companion:relay-change-result` with its `changeId`.
 */
export function setupIpcHub(options: IpcHubOptions): IpcHub {
  const { ipcMain, window, companion } = options
  const contents = window.webContents
  const refuse = options.onRefused ?? ((reason: string) => console.warn(`ipc: refused: ${reason}`))
  let attachment: WindowHandle | undefined
  let pendingFocus: string | undefined
  let shown: string | undefined

  const send = (channel: string, payload: unknown): void => {
    if (!contents.isDestroyed()) contents.send(channel, payload)
  }
  const detach = (): void => {
    attachment?.close()
    attachment = undefined
    shown = undefined
  }

  /** The sender check of every handler: our window, its main frame, our page. */
  const trusted = ipcSenderCheck(contents, options.isAppUrl, refuse)

  /**
   * Attaches the window to the core. When handling one of its frames fails in the core (a fault of
   * ours), the core has closed that attachment: the window is attached again at once and gets a fresh
   * `snapshot`, as after a reload, so it is never left deaf.
   */
  const attach = (): void => {
    const current = companion.attachWindow((frame: UiServerFrame) => send(IPC_CHANNELS.uiFrame, frame), {
      onFault: () => {
        if (attachment !== current) return
        attachment = undefined
        if (!contents.isDestroyed()) attach()
      },
    })
    attachment = current
  }

  const onSubscribe = (event: Electron.IpcMainEvent): void => {
    if (!trusted(event)) return
    detach()
    attach()
    if (pendingFocus !== undefined) {
      send(IPC_CHANNELS.focusAsk, { askId: pendingFocus })
      pendingFocus = undefined
    }
  }

  const onSend = (event: Electron.IpcMainEvent, payload: unknown): void => {
    if (!trusted(event)) return
    // The one check of this frame (the core takes it typed), in the same words as on the UI socket.
    const parsed = parseWindowFrame(payload)
    if (!parsed.ok) {
      refuse(`invalid frame: ${parsed.rejected.reason}`)
      if (parsed.rejected.askId !== '') send(IPC_CHANNELS.uiFrame, parsed.rejected)
      return
    }
    if (!attachment) {
      refuse('frame before companion:subscribe')
      return
    }
    attachment.receive(parsed.frame)
  }

  const onShown = (event: Electron.IpcMainEvent, payload: unknown): void => {
    if (!trusted(event)) return
    const parsed = ShownAskReportSchema.safeParse(payload)
    if (!parsed.success) return refuse('invalid shown-ask report')
    shown = parsed.data.askId ?? undefined
  }

  const onOpenLink = (event: Electron.IpcMainEvent, payload: unknown): void => {
    if (!trusted(event)) return
    const parsed = OpenLinkRequestSchema.safeParse(payload)
    if (!parsed.success) return refuse('invalid open-link request')
    const url = safeLinkUrl(parsed.data.url)
    if (url === undefined) return refuse('a link that is not an absolute http or https URL')
    if (!options.openLink) return refuse('links cannot be opened here')
    options.openLink(url)
  }

  // One change at a time, in the order sent: two removals never race each other for the roster.
  let changing: Promise<void> = Promise.resolve()
  const onRelayChange = (event: Electron.IpcMainEvent, payload: unknown): void => {
    if (!trusted(event)) return
    const parsed = RelayChangeRequestSchema.safeParse(payload)
    if (!parsed.success) return refuse('invalid relay change')
    const { changeId, change } = parsed.data
    const reply = (outcome: RelayChangeOutcome): void =>
      send(IPC_CHANNELS.relayChangeResult, { changeId, ...outcome } satisfies RelayChangeResult)
    const changeRelay = options.changeRelay
    if (!changeRelay) {
      refuse('the relay cannot be changed here')
      return reply({
        ok: false,
        code: 'RELAY_CHANGE_UNAVAILABLE',
        message: 'This window cannot change the relay; use `ask-user relay …` in a terminal.',
      })
    }
    // `changeRelay` never rejects; were it to, the person is told and later changes still run.
    changing = changing.then(() =>
      changeRelay(change).then(reply, (error: unknown) =>
        reply({ ok: false, code: 'RELAY_CHANGE_FAILED', message: `The change failed (${String(error)}).` }),
      ),
    )
  }

  ipcMain.on(IPC_CHANNELS.subscribe, onSubscribe)
  ipcMain.on(IPC_CHANNELS.relayChange, onRelayChange)
  ipcMain.on(IPC_CHANNELS.openLink, onOpenLink)
  ipcMain.on(IPC_CHANNELS.send, onSend)
  ipcMain.on(IPC_CHANNELS.shown, onShown)
  // A reload or a crash drops the renderer's subscription; it subscribes again when it comes back.
  contents.on('did-start-loading', detach)
  contents.on('render-process-gone', detach)
  contents.on('destroyed', detach)

  return {
    focusAsk(askId) {
      if (attachment) send(IPC_CHANNELS.focusAsk, { askId })
      else pendingFocus = askId
    },
    shownAskId: () => shown,
    dispose() {
      detach()
      ipcMain.removeListener(IPC_CHANNELS.subscribe, onSubscribe)
      ipcMain.removeListener(IPC_CHANNELS.send, onSend)
      ipcMain.removeListener(IPC_CHANNELS.shown, onShown)
      ipcMain.removeListener(IPC_CHANNELS.openLink, onOpenLink)
      ipcMain.removeListener(IPC_CHANNELS.relayChange, onRelayChange)
    },
  }
}
