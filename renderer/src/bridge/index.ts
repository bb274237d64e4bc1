import type { CompanionBridge } from '../../../shared/bridge'
import { SECRETS_MASKED_QUERY, UI_PATH } from '../../../shared/ui'
import { codeFromHash, PageAccess } from './page-access'
import { whoAnswers } from './status-probe'
import { createWebSocketBridge } from './websocket-bridge'

declare global {
  interface Window {
    /** The Electron preload's bridge; absent when the page is served by `ask-user serve`. */
    companion?: CompanionBridge
  }
}

let bridge: CompanionBridge | undefined

/**
 * The page's one bridge to the companion: `window.companion` when the Electron preload provided it,
 * else the WebSocket UI channel at `ws://<this page's host>/v1/ui`, signed in with the credential the
 * page redeemed from its link (`#code=…`, removed from the address bar at once), and only after the
 * companion proved itself; it declares `secrets=masked`, since this window masks secret questions.
 */
export function getBridge(): CompanionBridge {
  bridge ??= window.companion ?? servedPageBridge()
  return bridge
}

function servedPageBridge(): CompanionBridge {
  const access = new PageAccess({
    clearHash: () => history.replaceState(null, '', location.pathname + location.search),
  })
  const socketBridge = createWebSocketBridge({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${UI_PATH}?${SECRETS_MASKED_QUERY}`,
    credential: () => access.current(),
    onSignedOut: () => access.forget(),
    probe: () => whoAnswers(),
  })
  const started = access.start(location.hash)
  // A new link opened in this same tab (only its fragment changes, so the page does not load again).
  window.addEventListener('hashchange', () => {
    if (codeFromHash(location.hash) !== undefined) void access.start(location.hash).then(() => socketBridge.retry())
  })
  return {
    ...socketBridge,
    onAccess: (listener) => access.onState(listener),
    // The first subscription connects: only once the link's code was redeemed (or found missing).
    onFrame: (listener) => {
      let unsubscribe: (() => void) | undefined
      let cancelled = false
      void started.then(() => {
        if (!cancelled) unsubscribe = socketBridge.onFrame(listener)
      })
      return () => {
        cancelled = true
        unsubscribe?.()
      }
    },
  }
}
