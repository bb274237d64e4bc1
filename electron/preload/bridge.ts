import { IPC_CHANNELS } from '../../shared/ipc-channels'
import type { FocusAskRequest, PhonePairState, RelayChange, RelayChangeResult } from '../../shared/ipc'
import { frameCalls, type BridgeStatus, type CompanionBridge } from '../../shared/bridge'
import { Listeners } from '../../shared/listeners'
import type { UiClientFrame, UiServerFrame } from '../../shared/ui'

/** The two `ipcRenderer` methods the bridge uses (Electron's `ipcRenderer` has them). */
export interface IpcRendererLike {
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown
  send(channel: string, ...args: unknown[]): void
}

/**
 * The `window.companion` bridge over IPC: task-named functions only, no raw `ipcRenderer`. Frames
 * from main are handed to the page as they are: main is the more privileged side and built them from
 * the core's typed frames, so they are not parsed again here (main parses what the page sends). The
 * first `onFrame`
 * listener subscribes this window to the companion (main answers with a `snapshot`); the status is
 * `connecting` until that first frame arrives, then `open`. A focus request that arrives before any
 * `onFocusAsk` listener is kept and handed to the first one.
 */
export function createIpcBridge(
  ipc: IpcRendererLike,
): CompanionBridge &
  Required<Pick<CompanionBridge, 'onFocusAsk' | 'reportShown' | 'openLink' | 'phonePairing' | 'changeRelay'>> {
  const frameListeners = new Listeners<[frame: UiServerFrame]>(reportListenerError)
  const statusListeners = new Listeners<[status: BridgeStatus]>(reportListenerError)
  const focusListeners = new Listeners<[askId: string]>(reportListenerError)
  const phonePairListeners = new Listeners<[state: PhonePairState]>(reportListenerError)
  let status: BridgeStatus = 'connecting'
  let subscribed = false
  let heldFocus: string | undefined
  /** Relay changes sent and not answered yet, by their id. */
  const changes = new Map<string, (result: RelayChangeResult) => void>()
  let changeCount = 0

  const send = (frame: UiClientFrame): void => ipc.send(IPC_CHANNELS.send, frame)
  const setStatus = (next: BridgeStatus): void => {
    if (next === status) return
    status = next
    statusListeners.emit(next)
  }

  // Main sends only UiServerFrames on this channel (ipc-hub.ts); the type is its contract, not a check.
  ipc.on(IPC_CHANNELS.uiFrame, (_event, payload: unknown) => {
    setStatus('open')
    frameListeners.emit(payload as UiServerFrame)
  })
  // Likewise a focus request (ipc-hub.ts sends `{askId}`): main is more privileged, so it is not parsed again.
  ipc.on(IPC_CHANNELS.focusAsk, (_event, payload: unknown) => {
    const { askId } = payload as FocusAskRequest
    if (focusListeners.size === 0) heldFocus = askId
    focusListeners.emit(askId)
  })

  // Main builds these from its own pairing run (phone-pairing.ts): not parsed again, as above.
  ipc.on(IPC_CHANNELS.phonePairState, (_event, payload: unknown) => phonePairListeners.emit(payload as PhonePairState))

  // Main answers every relay change once, with its id (ipc-hub.ts); an id not waited for is dropped.
  ipc.on(IPC_CHANNELS.relayChangeResult, (_event, payload: unknown) => {
    const result = payload as RelayChangeResult
    const settle = changes.get(result.changeId)
    changes.delete(result.changeId)
    settle?.(result)
  })

  return {
    ...frameCalls(send),
    phonePairing: {
      start: () => ipc.send(IPC_CHANNELS.phonePairStart),
      decide: (pairId: string, confirm: boolean) => ipc.send(IPC_CHANNELS.phonePairDecide, { pairId, confirm }),
      onState: (listener: (state: PhonePairState) => void) => phonePairListeners.add(listener),
    },
    changeRelay(change: RelayChange) {
      const changeId = `change-${++changeCount}`
      return new Promise<RelayChangeResult>((resolve) => {
        changes.set(changeId, resolve)
        ipc.send(IPC_CHANNELS.relayChange, { changeId, change })
      })
    },
    openLink(url: string) {
      ipc.send(IPC_CHANNELS.openLink, { url })
    },
    reportShown(askId: string | undefined) {
      ipc.send(IPC_CHANNELS.shown, { askId: askId ?? null })
    },
    onFrame(listener) {
      const off = frameListeners.add(listener)
      if (!subscribed) {
        subscribed = true
        ipc.send(IPC_CHANNELS.subscribe)
      }
      return off
    },
    onStatus(listener) {
      const off = statusListeners.add(listener)
      listener(status)
      return off
    },
    onFocusAsk(listener) {
      const off = focusListeners.add(listener)
      if (heldFocus !== undefined) {
        const askId = heldFocus
        heldFocus = undefined
        listener(askId)
      }
      return off
    },
  }
}

/** A page's listener threw: the bridge goes on for the others; the console keeps the error. */
function reportListenerError(error: unknown): void {
  console.error('ask-user: a bridge listener failed', error)
}
