// The preload (sandboxed, context-isolated): exposes the task-named `window.companion` bridge, nothing else.
import { contextBridge, ipcRenderer } from 'electron'
import type { CompanionBridge } from '../../shared'
import { createIpcBridge } from './bridge'

const bridge = createIpcBridge(ipcRenderer) satisfies CompanionBridge

contextBridge.exposeInMainWorld('companion', {
  answer: bridge.answer,
  decide: bridge.decide,
  dismiss: bridge.dismiss,
  dismissNotice: bridge.dismissNotice,
  requestHistory: bridge.requestHistory,
  onFrame: bridge.onFrame,
  onStatus: bridge.onStatus,
  onFocusAsk: bridge.onFocusAsk,
  reportShown: bridge.reportShown,
  openLink: bridge.openLink,
  phonePairing: bridge.phonePairing,
  changeRelay: bridge.changeRelay,
} satisfies CompanionBridge)
