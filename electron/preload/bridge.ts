import { FocusAskRequestSchema, IPC_CHANNELS } from '../../shared/ipc'
import { historyRequest, UiServerFrameSchema } from '../../shared/ui'
import type { Answer, ApprovalDecision, BridgeStatus, CompanionBridge, UiClientFrame, UiServerFrame } from '../../shared'

/** The two `ipcRenderer` methods the bridge uses (Electron's `ipcRenderer` has them). */
export interface IpcRendererLike {
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown
  send(channel: string, ...args: unknown[]): void
}

/**
 * The `window.companion` bridge over IPC: task-named functions only, no raw `ipcRenderer`. Frames
 * from main are parsed with the shared schemas before they reach the page. The first `onFrame`
 * listener subscribes this window to the companion (main answers with a `snapshot`); the status is
 * `connecting` until that first frame arrives, then `open`. A focus request that arrives before any
 * `onFocusAsk` listener is kept and handed to the first one.
 */
export function createIpcBridge(ipc: IpcRendererLike): CompanionBridge & Required<Pick<CompanionBridge, 'onFocusAsk' | 'reportShown' | 'openLink'>> {
  const frameListeners = new Set<(frame: UiServerFrame) => void>()
  const statusListeners = new Set<(status: BridgeStatus) => void>()
  const focusListeners = new Set<(askId: string) => void>()
  let status: BridgeStatus = 'connecting'
  let subscribed = false
  let heldFocus: string | undefined

  const send = (frame: UiClientFrame): void => ipc.send(IPC_CHANNELS.send, frame)
  const setStatus = (next: BridgeStatus): void => {
    if (next === status) return
    status = next
    for (const listener of statusListeners) listener(next)
  }

  ipc.on(IPC_CHANNELS.uiFrame, (_event, payload: unknown) => {
    const parsed = UiServerFrameSchema.safeParse(payload)
    if (!parsed.success) return
    setStatus('open')
    for (const listener of frameListeners) listener(parsed.data)
  })
  ipc.on(IPC_CHANNELS.focusAsk, (_event, payload: unknown) => {
    const parsed = FocusAskRequestSchema.safeParse(payload)
    if (!parsed.success) return
    if (focusListeners.size === 0) heldFocus = parsed.data.askId
    for (const listener of focusListeners) listener(parsed.data.askId)
  })

  return {
    answer(askId: string, answers: Answer[]) {
      send({ type: 'answer', askId, answers })
    },
    decide(askId: string, decision: ApprovalDecision) {
      send({ type: 'decide', askId, decision })
    },
    dismiss(askId: string) {
      send({ type: 'dismiss', askId })
    },
    dismissNotice(noticeId: string) {
      send({ type: 'notice/dismiss', noticeId })
    },
    openLink(url: string) {
      ipc.send(IPC_CHANNELS.openLink, { url })
    },
    reportShown(askId: string | undefined) {
      ipc.send(IPC_CHANNELS.shown, { askId: askId ?? null })
    },
    requestHistory(limit?: number, before?: string) {
      send(historyRequest(limit, before))
    },
    onFrame(listener) {
      frameListeners.add(listener)
      if (!subscribed) {
        subscribed = true
        ipc.send(IPC_CHANNELS.subscribe)
      }
      return () => void frameListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      listener(status)
      return () => void statusListeners.delete(listener)
    },
    onFocusAsk(listener) {
      focusListeners.add(listener)
      if (heldFocus !== undefined) {
        const askId = heldFocus
        heldFocus = undefined
        listener(askId)
      }
      return () => void focusListeners.delete(listener)
    },
  }
}
