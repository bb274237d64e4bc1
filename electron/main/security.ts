import type * as Electron from 'electron'
import { pageCsp } from '../../shared/csp'
import type { RendererSource } from './content'

/**
 * The window's Content-Security-Policy, sent as a header on every response of its session: the
 * Electron build's (shared/csp.ts, the meta tag of the built index.html plus `frame-ancestors`), which allows no
 * loopback WebSocket (the window talks to the companion over IPC only); in dev, the dev server's
 * hot-reload socket is allowed.
 */
export function contentSecurityPolicy(source: RendererSource): string {
  return pageCsp('electron', 'header', source.kind === 'dev' ? new URL(source.url).host : undefined)
}

/** The window's web preferences: isolated, sandboxed, no Node, web security on, no <webview>. */
export function hardenedWebPreferences(preload: string): Electron.WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  }
}

/**
 * Hardens a session: every response carries the CSP header (webRequest does not see `file:` pages,
 * where the meta tag applies), and every permission request or check is denied (the window needs
 * none: no camera, notifications API, clipboard-read, geolocation...).
 */
export function hardenSession(session: Electron.Session, csp: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

/**
 * Hardens one webContents: no navigation away from the page (links, drag-and-drop, redirects), in the
 * main frame or any sub-frame, no new windows, no <webview>. Applied to every webContents the app
 * creates (`web-contents-created`).
 */
export function hardenWebContents(contents: Electron.WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault())
  // `will-navigate` covers the main frame only; `will-frame-navigate` also fires for sub-frames.
  contents.on('will-frame-navigate', (event) => event.preventDefault())
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

/** Applies `hardenWebContents` to every webContents the app will create. */
export function setupSecurity(app: Electron.App, session: Electron.Session, csp: string): void {
  hardenSession(session, csp)
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents))
}
