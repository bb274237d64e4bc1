import { resolve } from 'node:path'
import { build, defineConfig, type Plugin } from 'vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

const root = (path: string): string => resolve(import.meta.dirname, path)
const outDir = root('out/phone')

/**
 * The phone app's Content-Security-Policy (the `<meta>` tag written at build time; a host adds the same as
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
const PHONE_CSP_PLACEHOLDER = '%ASK_USER_PHONE_CSP%'

/** The policy into phone/index.html's meta tag. */
function phoneCspPlugin(): Plugin {
  return {
    name: 'ask-user-phone-csp',
    transformIndexHtml: (html) => html.replace(PHONE_CSP_PLACEHOLDER, phoneCsp('meta')),
  }
}

/**
 * The service worker as one classic script at the app's root (`sw.js`: its scope is the whole app, and a
 * classic script runs on every browser of the baseline), built after the page into the same folder.
 */
function serviceWorkerPlugin(): Plugin {
  return {
    name: 'ask-user-phone-service-worker',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          lib: {
            entry: root('phone/src/sw/service-worker.ts'),
            formats: ['iife'],
            name: 'askUserServiceWorker',
            fileName: () => 'sw.js',
          },
        },
      })
    },
  }
}

/**
 * The phone app (issue "Answer from the phone"): static files in out/phone, built from the window's
 * Svelte code, deployable to any HTTPS origin (`ask-user relay serve-app DIR`, the project's Pages site).
 */
export default defineConfig({
  root: root('phone'),
  base: './',
  plugins: [svelte({ configFile: root('svelte.config.mjs') }), phoneCspPlugin(), serviceWorkerPlugin()],
  build: { outDir, emptyOutDir: true },
})
