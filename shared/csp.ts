/**
 * The question window's Content-Security-Policy, per build. Both forbid every script but the page's
 * own, every image but the page's own (`img-src 'self'`: the backstop behind agent images never being
 * loaded at all), plugins, `<base>`, forms and framing. They differ in one place: the page that
 * `ask-user serve` serves to a browser talks to the companion over a loopback WebSocket, so its
 * `connect-src` allows `ws:` to 127.0.0.1 and localhost; the Electron window talks over IPC
 * only, so its page may connect nowhere but itself.
 */
export type CspTarget = 'electron' | 'web'

/**
 * How the policy reaches the browser: an HTTP header (Electron's session header, serve's response
 * header) or the page's `<meta>` tag, which may not carry `frame-ancestors` (browsers ignore it
 * there, and Chromium logs an error on every load).
 */
export type CspDelivery = 'header' | 'meta'

/**
 * The loopback WebSocket origins of the browser build (any port: the companion's is chosen at start).
 * No `[::1]`: the companion binds 127.0.0.1 only, and Chromium rejects `ws://[::1]:*` as a source.
 */
export const LOOPBACK_SOCKETS = ['ws://127.0.0.1:*', 'ws://localhost:*'] as const

/**
 * The policy for `target` as `delivery` carries it: the header has `frame-ancestors 'none'`, the meta
 * tag does not (the header is what stops framing). `devSocket` (`host:port` of electron-vite's dev
 * server, dev only) is allowed for its hot-reload socket.
 */
export function pageCsp(target: CspTarget, delivery: CspDelivery, devSocket?: string): string {
  const connect = [
    "'self'",
    ...(target === 'web' ? LOOPBACK_SOCKETS : []),
    ...(devSocket !== undefined ? [`ws://${devSocket}`] : []),
  ]
  return [
    `default-src 'self'`,
    `script-src 'self'`,
    `connect-src ${connect.join(' ')}`,
    `style-src 'self' 'unsafe-inline'`, // Svelte's scoped styles and transitions set inline styles
    `img-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
    ...(delivery === 'header' ? [`frame-ancestors 'none'`] : []),
    // DOM HTML sinks take only Trusted Types, and only Svelte's own policy may make them (for its
    // compiled templates): any other innerHTML-style write throws.
    `require-trusted-types-for 'script'`,
    `trusted-types svelte-trusted-html`,
  ].join('; ')
}

/** The file of each build inside out/renderer: the Electron window loads one, `ask-user serve` serves the other. */
export const PAGE_FILES: Record<CspTarget, string> = { electron: 'index.html', web: 'web.html' }
