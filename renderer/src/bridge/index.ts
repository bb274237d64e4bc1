import type { CompanionBridge } from '../../../shared/bridge'
import { SECRETS_MASKED_QUERY, TOKEN_SUBPROTOCOL_PREFIX, UI_PATH, UI_SUBPROTOCOL } from '../../../shared/ui'
import { createWebSocketBridge } from './websocket-bridge'

declare global {
  interface Window {
    /** The Electron preload's bridge; absent when the page is served by `ask-user serve`. */
    companion?: CompanionBridge
  }
}

/** The token from a URL fragment `#token=<token>` (the page `ask-user serve` prints), if any. */
export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token ? token : undefined
}

/** Subprotocols for the UI channel: the protocol name, plus `token.<token>` when a token is known. */
export function uiProtocols(token: string | undefined): string[] {
  return token ? [UI_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX + token] : [UI_SUBPROTOCOL]
}

let bridge: CompanionBridge | undefined

/**
 * The page's one bridge to the companion: `window.companion` when the Electron preload provided it,
 * else the WebSocket UI channel at `ws://<this page's host>/v1/ui`, authenticated by the fragment token;
 * it declares `secrets=masked`, since this window masks secret questions.
 */
export function getBridge(): CompanionBridge {
  bridge ??=
    window.companion ??
    createWebSocketBridge({
      url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${UI_PATH}?${SECRETS_MASKED_QUERY}`,
      protocols: uiProtocols(tokenFromHash(location.hash)),
    })
  return bridge
}
