import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Where the question window's page comes from: the built files, or electron-vite's dev server. */
export type RendererSource = { kind: 'file'; path: string } | { kind: 'dev'; url: string }

/**
 * The built `out/renderer/index.html` beside `out/main` (`mainDir` is the bundle's `__dirname`), or
 * the electron-vite dev server when running unpackaged with `ELECTRON_RENDERER_URL` set. A dev URL that
 * is not plain http on a loopback host is ignored: the window never loads remote content.
 */
export function rendererSource(mainDir: string, isPackaged: boolean, env: NodeJS.ProcessEnv): RendererSource {
  const devUrl = env['ELECTRON_RENDERER_URL']
  if (!isPackaged && devUrl && isLoopbackHttp(devUrl)) return { kind: 'dev', url: devUrl }
  return { kind: 'file', path: join(mainDir, '../renderer/index.html') }
}

/** The preload bundle beside `out/main`. */
export function preloadPath(mainDir: string): string {
  return join(mainDir, '../preload/index.js')
}

function isLoopbackHttp(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url)
    return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname)
  } catch {
    return false
  }
}

/**
 * True when `url` is our page: the built index.html itself (any hash or query) or, in dev, a page of
 * the dev server's origin. Used to check IPC senders and navigations.
 */
export function isAppUrl(source: RendererSource, url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (source.kind === 'dev') return parsed.origin === new URL(source.url).origin
  parsed.hash = ''
  parsed.search = ''
  return parsed.href === pathToFileURL(source.path).href
}
