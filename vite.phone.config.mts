import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { build, defineConfig, type Plugin } from 'vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

const root = (path: string): string => resolve(import.meta.dirname, path)
const outDir = root('out/phone')

/**
 * The app's version as the person sees it: the package version and the commit it was built from (a
 * release build is reproducible from that pair), or `dev` outside a git checkout.
 */
function appVersion(): string {
  const { version } = JSON.parse(readFileSync(root('package.json'), 'utf8')) as { version: string }
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: root('.'), encoding: 'utf8' }).trim()
    return `${version}+${commit}`
  } catch {
    return `${version}+dev`
  }
}
const APP_VERSION = appVersion()

/** @hpke/core's fallback import of Node's `crypto`, never taken in a browser (phone/src/no-node-crypto.ts). */
const resolveForBrowser = { alias: { crypto: root('phone/src/no-node-crypto.ts') } }

/** Every file the page build wrote, relative to out/phone: what the service worker keeps for offline use. */
function builtFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((file) => file !== 'sw.js')
    .sort()
}

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
    `trusted-types svelte-trusted-html ask-user-sw`, // Svelte's templates; the page's own service worker URL
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
      const files = builtFiles(outDir)
      // The cache name changes with any byte of the app, so a new build is a new version to the browser.
      const digest = createHash('sha256')
      for (const file of files) digest.update(file).update(readFileSync(join(outDir, file)))
      await build({
        configFile: false,
        logLevel: 'warn',
        resolve: resolveForBrowser,
        define: {
          __APP_VERSION__: JSON.stringify(APP_VERSION),
          __PRECACHE__: JSON.stringify(['./', ...files.map((file) => `./${file}`)]),
          __CACHE_NAME__: JSON.stringify(`ask-user-app-${digest.digest('hex').slice(0, 16)}`),
        },
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

/** The interface's chunk (PhoneApp.svelte, imported by the entry): with the entry, what every first screen runs. */
const INTERFACE_CHUNK = 'PhoneApp'

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136 and later; to other engines a plain
 * comment) as the first line of the chunks every first screen runs: V8 then compiles all of their functions
 * while it streams the file, on a background thread, instead of each on the main thread at its first call.
 * A warm load (the service worker's cache keeps no compiled code for module scripts) compiled about 0.6 s
 * of functions on the main thread at 4× CPU throttling; with the hint the main thread's work until the
 * list shows fell by about a seventh (docs/performance.md). Added last, after Vite's own preload helper,
 * as the hint counts only on the file's first line; a source map gets one empty line in front.
 */
function compileHintPlugin(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n'
  return {
    name: 'ask-user-phone-compile-hint',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !(chunk.isEntry || chunk.name === INTERFACE_CHUNK)) continue
          chunk.code = HINT + chunk.code
          // The source map is its own asset by now: its lines start one later.
          const map = bundle[`${chunk.fileName}.map`]
          if (map?.type === 'asset') {
            const parsed = JSON.parse(String(map.source)) as { mappings: string }
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` })
          }
        }
      },
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
  plugins: [
    svelte({ configFile: root('svelte.config.mjs') }),
    phoneCspPlugin(),
    serviceWorkerPlugin(),
    compileHintPlugin(),
  ],
  resolve: resolveForBrowser,
  define: { __APP_VERSION__: JSON.stringify(APP_VERSION) },
  // The entry (relay client, crypto, the first-screen decision) and the chunks it imports when needed: the
  // interface, the pairing screen, the Markdown parser (phone/src/main.ts). Every chunk is a same-origin
  // script (`script-src 'self'`) and in the worker's precache list (builtFiles), so all of it works
  // offline. Sizes are reported by `npm run bench -- --only=phone`, not warned about here.
  build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 1_024 },
})
