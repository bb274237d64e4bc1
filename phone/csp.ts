/**
 * The phone app's Content-Security-Policy (a `<meta>` tag written at build time; a host adds the same as
 * a header, with `frame-ancestors 'none'`). The app holds the phone's private keys, so only its own
 * scripts run and it talks to nothing but its own origin and the relay's WebSocket (`wss:`; plain `ws:`
 * only to loopback, for a relay on the same machine and for tests). No third-party request of any kind.
 */
export function phoneCsp(delivery: 'header' | 'meta'): string {
  return [
    `default-src 'self'`,
    `script-src 'self'`,
    `worker-src 'self'`,
    `manifest-src 'self'`,
    `connect-src 'self' wss: ws://127.0.0.1:* ws://localhost:*`,
    `style-src 'self' 'unsafe-inline'`, // Svelte's scoped styles and transitions set inline styles
    `img-src 'self' data:`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
    ...(delivery === 'header' ? [`frame-ancestors 'none'`] : []),
    `require-trusted-types-for 'script'`,
    `trusted-types svelte-trusted-html`,
  ].join('; ')
}

/** What phone/index.html holds where the policy goes. */
export const PHONE_CSP_PLACEHOLDER = '%ASK_USER_PHONE_CSP%'
