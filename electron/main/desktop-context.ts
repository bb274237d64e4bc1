// The one value every step of the desktop's wiring takes (desktop-steps.ts): what the app was started
// with, the person's settings, and the parts the steps connect (core, window, IPC hub, updater).
import { join } from 'node:path'
import type * as Electron from 'electron'
import type * as CoreModule from '../../core'
import type { DesktopCompanion } from './companion'
import { isAppUrl, preloadPath, rendererSource } from './content'
import type { RendererSource } from './content'
import type { ElectronApi, Platform } from './electron-api'
import { externalLinkOpener } from './external-links'
import type { TrayIconPaths } from './icon-paths'
import { setupIpcHub } from './ipc-hub'
import type { IpcHub } from './ipc-hub'
import { launchedAtLogin } from './login-item'
import { setupPhonePairing } from './phone-pairing'
import { applyRelayChange } from './relay-changes'
import { contentSecurityPolicy, setupSecurity } from './security'
import { openSettingsStore } from './settings-store'
import type { SettingsStore } from './settings-store'
import { stringsFor } from './strings'
import type { Strings } from './strings'
import { setupUpdates, updateChannel } from './updates'
import type { Updates, UpdatesOptions } from './updates'
import { createQuestionWindow } from './window'
import type { QuestionWindow } from './window'
import { loadWindowState, saveWindowState } from './window-state'

/** The companion core's entry points the desktop shell uses (`core/`). */
export type CoreApi = Pick<
  typeof CoreModule,
  'resolveHome' | 'loadSettings' | 'saveSettings' | 'startCompanion' | 'connectInfo'
>

export interface DesktopOptions {
  app: Electron.App
  /** The rest of electron; called once the app is ready (some modules may not be touched before). */
  electron(): ElectronApi
  core: CoreApi
  icons: TrayIconPaths
  platform: Platform
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  /** The main bundle's folder (`out/main`): the preload and the page are found beside it. */
  mainDir: string
  /** `process.resourcesPath`: the packaged app's `ask-user` launcher is in its `bin/`. */
  resourcesPath?: string
  /** electron-updater's updater for a channel (updater-factory.ts); absent: no updates (tests, dev). */
  createUpdater?: (channel: ReturnType<typeof updateChannel>) => UpdatesOptions['updater']
  /** Where builds without an updater (a deb) find new releases. */
  releasesUrl?: string
  warn?(message: string): void
}

/** The started app as its wiring steps see it. Built once by {@link createDesktopContext}. */
export interface DesktopContext {
  options: DesktopOptions
  app: Electron.App
  electron: ElectronApi
  platform: Platform
  env: NodeJS.ProcessEnv
  warn(message: string): void
  /** The companion's home folder (settings.json, window state, discovery). */
  home: string
  settings: SettingsStore
  /** The window's strings in the language the settings choose (or the system's). */
  strings(): Strings
  companion: DesktopCompanion
  window: QuestionWindow
  hub: IpcHub
  /** Present for a packaged app with an update channel; absent in development and tests. */
  updates?: Updates
  /** Brings the window up on one ask (tray menu, notification click). */
  openAsk(askId: string): void
  /** Asks the app to quit: quit.ts confirms with the person when asks are pending, then stops the core. */
  quit(): void
  /** Adds a clean-up to run, last added first, once quitting is confirmed and before the core stops. */
  onStop(dispose: () => void): void
  /** Runs the clean-ups added with {@link DesktopContext.onStop}. */
  stop(): void
}

/**
 * Reads the settings, hardens the session, starts the core, opens the question window and its IPC hub,
 * and sets up updates for a packaged app: the parts every later step connects. The session's CSP and
 * the theme are set before the window is created, so the first page load has them.
 */
export async function createDesktopContext(options: DesktopOptions): Promise<DesktopContext> {
  const { app, core, platform, env } = options
  const electron = options.electron()
  const warn = options.warn ?? console.warn
  const disposers: Array<() => void> = []
  const home = core.resolveHome(env)
  const settings = await openSettingsStore(
    { load: () => core.loadSettings(home), save: (s) => core.saveSettings(home, s) },
    warn,
  )
  const strings = (): Strings => stringsFor(settings.get().language, app.getLocale())
  const source = rendererSource(options.mainDir, app.isPackaged, env)

  setupSecurity(app, electron.session.defaultSession, contentSecurityPolicy(source))
  followTheme(electron.nativeTheme, settings)
  // `ask-user open` raises the window; the core starts first, so the route finds it once it exists.
  let raise = (): void => undefined
  const companion = await startCore(options, home, settings, warn, () => raise())
  const window = await openWindow(electron, options, home, source, settings, warn)
  raise = () => window.show()
  disposers.push(() => window.allowClose())
  const openLink = externalLinkOpener({
    window: window.browserWindow,
    dialog: electron.dialog,
    shell: electron.shell,
    strings,
    warn,
  })
  const hub = setupIpcHub({
    ipcMain: electron.ipcMain,
    window: window.browserWindow,
    companion,
    isAppUrl: (url) => isAppUrl(source, url),
    onRefused: (r) => warn(`ipc: refused: ${r}`),
    openLink,
    changeRelay: (change) => applyRelayChange(home, change),
  })
  disposers.push(() => hub.dispose())
  disposers.push(
    setupPhonePairing({
      ipcMain: electron.ipcMain,
      window: window.browserWindow,
      home,
      isAppUrl: (url) => isAppUrl(source, url),
      onRefused: (r) => warn(`ipc: refused: ${r}`),
    }),
  )
  const updates = startUpdates(options, electron, settings, strings, warn)
  if (updates) disposers.push(() => updates.dispose())
  return {
    options,
    app,
    electron,
    platform,
    env,
    warn,
    home,
    settings,
    strings,
    companion,
    window,
    hub,
    ...(updates ? { updates } : {}),
    openAsk: (askId) => {
      window.show()
      hub.focusAsk(askId)
    },
    quit: () => app.quit(),
    onStop: (dispose) => void disposers.push(dispose),
    stop: () => {
      for (const dispose of disposers.splice(0).reverse()) dispose()
    },
  }
}

/** Starts the core with the person's settings; the built page is also served to browsers (`/`). */
function startCore(
  options: DesktopOptions,
  home: string,
  settings: SettingsStore,
  warn: (message: string) => void,
  showWindow: () => void,
): Promise<DesktopCompanion> {
  const { app, core, mainDir, platform, env } = options
  // Packaged: the launcher in resources/bin; a development run: the checkout's bin/ask-user.js.
  const install =
    app.isPackaged && options.resourcesPath !== undefined
      ? { resourcesPath: options.resourcesPath }
      : { script: join(mainDir, '..', '..', 'bin', 'ask-user.js') }
  const connect = core.connectInfo({ platform, home, env, ...install })
  const loaded = settings.get()
  return core.startCompanion({
    home,
    port: loaded.port,
    loadedSettings: loaded, // read once, by the settings store: a broken file warns once
    staticDir: join(mainDir, '../renderer'),
    writeDiscovery: true,
    serverInfo: { name: 'ask-user-companion', version: app.getVersion() },
    onWarning: warn,
    showWindow,
    ...(connect ? { connect } : {}),
  })
}

/** The question window, at its remembered size and position (saved in the home folder). */
async function openWindow(
  electron: ElectronApi,
  options: DesktopOptions,
  home: string,
  source: RendererSource,
  settings: SettingsStore,
  warn: (message: string) => void,
): Promise<QuestionWindow> {
  const displays = electron.screen?.getAllDisplays().map((display) => display.workArea) ?? []
  const state = await loadWindowState(home, displays)
  return createQuestionWindow({
    BrowserWindow: electron.BrowserWindow,
    source,
    preload: preloadPath(options.mainDir),
    state,
    saveState: (next) =>
      void saveWindowState(home, next).catch((error: Error) => warn(`window state not saved: ${error.message}`)),
    startHidden: launchedAtLogin(options.app, options.platform, options.argv),
    language: settings.get().language,
  })
}

/** The light/dark setting drives native UI (menus, dialogs) and the page's `prefers-color-scheme`. */
function followTheme(nativeTheme: Electron.NativeTheme, settings: SettingsStore): void {
  nativeTheme.themeSource = settings.get().theme
  settings.onChange((next) => {
    nativeTheme.themeSource = next.theme
  })
}

/** Updates for a packaged app (checks, download, install on quit); none for a development run. */
function startUpdates(
  options: DesktopOptions,
  electron: ElectronApi,
  settings: SettingsStore,
  strings: () => Strings,
  warn: (m: string) => void,
): Updates | undefined {
  const channel = updateChannel(options.platform, options.env, options.app.isPackaged)
  if (channel === undefined || options.createUpdater === undefined) return undefined
  return setupUpdates({
    updater: options.createUpdater(channel),
    releasesUrl: options.releasesUrl ?? '',
    settings,
    strings,
    dialog: electron.dialog,
    shell: electron.shell,
    warn,
  })
}
