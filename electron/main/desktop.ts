import { join } from 'node:path'
import type * as Electron from 'electron'
import type { Settings } from '../../shared'
import type * as CoreModule from '../../core'
import type { DesktopCompanion } from './companion'
import { isAppUrl, preloadPath, rendererSource } from './content'
import type { RendererSource } from './content'
import type { ElectronApi, Platform } from './electron-api'
import type { TrayIconPaths } from './icon-paths'
import { externalLinkOpener } from './external-links'
import { setupIpcHub } from './ipc-hub'
import type { IpcHub } from './ipc-hub'
import { commandLineAction } from './command-line-install'
import { applyLoginItem, launchedAtLogin } from './login-item'
import { setupUpdates, updateChannel } from './updates'
import type { UpdatesOptions } from './updates'
import { setupNotifications } from './notifications'
import { setupUnsignedNotice } from './unsigned-notice'
import { TOAST_ACTIVATOR_CLSID } from './windows-toast'
import { setupQuit } from './quit'
import { contentSecurityPolicy, setupSecurity } from './security'
import { openSettingsStore } from './settings-store'
import type { SettingsStore } from './settings-store'
import { claimSingleInstance } from './single-instance'
import { stringsFor } from './strings'
import type { Strings } from './strings'
import { setupTray } from './tray'
import type { CompanionTray } from './tray'
import { createQuestionWindow } from './window'
import type { QuestionWindow } from './window'
import { loadWindowState, saveWindowState } from './window-state'
import { errorMessage } from '../../shared/describe-error'

/** The companion core's entry points the desktop shell uses (`core/`). */
export type CoreApi = Pick<typeof CoreModule, 'resolveHome' | 'loadSettings' | 'saveSettings' | 'startCompanion' | 'connectInfo'>

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

/** The running desktop app, returned for tests and for the entry point. */
export interface Desktop {
  companion: DesktopCompanion
  settings: SettingsStore
  window: QuestionWindow
  hub: IpcHub
  tray: CompanionTray
  /** Brings the window up on one ask (tray menu, notification click). */
  openAsk(askId: string): void
  quit(): void
}

/**
 * Starts the desktop app: takes the single-instance lock (a second launch focuses the first and exits
 * 0; the promise then resolves `undefined`), waits for `ready`, then runs `onReady`. A core that cannot
 * start (a fixed port in use, an unwritable home) is shown in an error box and the app exits 1.
 */
export async function startDesktop(options: DesktopOptions): Promise<Desktop | undefined> {
  const { app } = options
  let showWindow = (): void => {}
  if (!claimSingleInstance(app, () => showWindow())) return undefined
  await app.whenReady()
  try {
    const desktop = await onReady(options)
    showWindow = () => desktop.window.show()
    return desktop
  } catch (error) {
    const message = errorMessage(error)
    ;(options.warn ?? console.error)(`Error: the companion could not start: ${message}`)
    options.electron().dialog.showErrorBox('Ask User Companion could not start', message)
    app.exit(1)
    return undefined
  }
}

/** The app's wiring, in order. Each step is one file of this folder. */
async function onReady(options: DesktopOptions): Promise<Desktop> {
  const { app, core, platform, env } = options
  const electron = options.electron()
  const warn = options.warn ?? console.warn
  if (platform === 'win32') {
    // Toasts are matched to the Start Menu shortcut NSIS writes with electron-builder's appId, and
    // their buttons reach the app through a fixed activator CLSID: both before the first toast.
    app.setAppUserModelId('dev.askuser.companion')
    app.setToastActivatorCLSID(TOAST_ACTIVATOR_CLSID)
  }

  const home = core.resolveHome(env)
  const settings = await openSettingsStore({ load: () => core.loadSettings(home), save: (s) => core.saveSettings(home, s) }, warn)
  const strings = (): Strings => stringsFor(settings.get().language, app.getLocale())
  const source = rendererSource(options.mainDir, app.isPackaged, env)

  setupSecurity(app, electron.session.defaultSession, contentSecurityPolicy(source))
  setupTheme(electron.nativeTheme, settings)
  const companion = await startCore(options, home, settings.get(), warn)
  const window = await setupWindow(electron, options, home, source, warn, settings.get().language)
  const openLink = externalLinkOpener({ window: window.browserWindow, dialog: electron.dialog, shell: electron.shell, strings, warn })
  const hub = setupIpcHub({ ipcMain: electron.ipcMain, window: window.browserWindow, companion, isAppUrl: (url) => isAppUrl(source, url), onRefused: (r) => warn(`ipc: refused: ${r}`), openLink })
  const openAsk = (askId: string): void => {
    window.show()
    hub.focusAsk(askId)
  }
  setupAttention(companion, window, settings)
  const stopNotifications = setupNotifications({
    Notification: electron.Notification,
    companion,
    platform,
    settings: () => settings.get(),
    strings,
    windowFocused: () => window.isFocused(),
    shownAskId: () => hub.shownAskId(),
    onClick: openAsk,
    onOpen: () => window.show(),
  })
  await setupUnsignedNotice({
    platform,
    isPackaged: app.isPackaged,
    resourcesPath: options.resourcesPath,
    home,
    companion,
    dialog: electron.dialog,
    window: () => window.browserWindow,
    strings,
    notificationsOn: () => settings.get().notifications && !settings.get().doNotDisturb,
    warn,
  })
  const updates = setupUpdatesFor(options, electron, settings, strings, warn)
  const { quit } = setupQuit({
    app,
    dialog: electron.dialog,
    companion,
    strings,
    window: () => window.browserWindow,
    beforeStop: () => {
      updates?.dispose()
      stopNotifications()
      tray.dispose()
      hub.dispose()
      window.allowClose()
    },
    warn,
  })
  const tray = setupTray({
    ...electron,
    platform,
    companion,
    settings,
    strings,
    icons: options.icons,
    window: () => window.browserWindow,
    actions: {
      openAsk,
      open: () => window.show(),
      quit,
      setStartAtLogin: (on) => void settings.update({ startAtLogin: on }),
      installCommandLine: commandLineAction({ app, dialog: electron.dialog, platform, env, strings, resourcesPath: options.resourcesPath, warn }),
      ...(updates ? { checkForUpdates: () => void updates.checkNow() } : {}),
    },
  })
  setupLoginItem(app, platform, settings, env, warn)
  app.on('activate', () => window.show()) // macOS: a click on the dock icon
  return { companion, settings, window, hub, tray, openAsk, quit }
}

/** Starts the core with the person's settings; the built page is also served to browsers (`/`). */
function startCore(options: DesktopOptions, home: string, settings: Settings, warn: (message: string) => void): Promise<DesktopCompanion> {
  const { app, core, mainDir, platform, env } = options
  // Packaged: the launcher in resources/bin; a development run: the checkout's bin/ask-user.js.
  const install = app.isPackaged && options.resourcesPath !== undefined ? { resourcesPath: options.resourcesPath } : { script: join(mainDir, '..', '..', 'bin', 'ask-user.js') }
  const connect = core.connectInfo({ platform, home, env, ...install })
  return core.startCompanion({
    home,
    port: settings.port,
    loadedSettings: settings, // read once, by the settings store: a broken file warns once
    staticDir: join(mainDir, '../renderer'),
    writeDiscovery: true,
    serverInfo: { name: 'ask-user-companion', version: app.getVersion() },
    onWarning: warn,
    ...(connect ? { connect } : {}),
  })
}

/** The question window, at its remembered size and position (saved in the home folder). */
async function setupWindow(
  electron: ElectronApi,
  options: DesktopOptions,
  home: string,
  source: RendererSource,
  warn: (message: string) => void,
  language: Settings['language'],
): Promise<QuestionWindow> {
  const displays = electron.screen?.getAllDisplays().map((display) => display.workArea) ?? []
  const state = await loadWindowState(home, displays)
  return createQuestionWindow({
    BrowserWindow: electron.BrowserWindow,
    source,
    preload: preloadPath(options.mainDir),
    state,
    saveState: (next) => void saveWindowState(home, next).catch((error: Error) => warn(`window state not saved: ${error.message}`)),
    startHidden: launchedAtLogin(options.app, options.platform, options.argv),
    language,
  })
}

/** A new ask brings the window up (unless Do not disturb; never taking focus from the person typing). */
function setupAttention(companion: DesktopCompanion, window: QuestionWindow, settings: SettingsStore): void {
  companion.on('added', () => window.attention(settings.get().doNotDisturb))
}

/** The light/dark setting drives native UI (menus, dialogs) and the page's `prefers-color-scheme`. */
function setupTheme(nativeTheme: Electron.NativeTheme, settings: SettingsStore): void {
  nativeTheme.themeSource = settings.get().theme
  settings.onChange((next) => {
    nativeTheme.themeSource = next.theme
  })
}

/** Updates for a packaged app (checks, download, install on quit); none for a development run. */
function setupUpdatesFor(options: DesktopOptions, electron: ElectronApi, settings: SettingsStore, strings: () => Strings, warn: (m: string) => void) {
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

/** Keeps the OS login item in step with the "Start at login" setting, now and on every change. */
function setupLoginItem(app: Electron.App, platform: Platform, settings: SettingsStore, env: NodeJS.ProcessEnv, warn: (m: string) => void): void {
  applyLoginItem(app, platform, settings.get().startAtLogin, env, warn)
  settings.onChange((next, previous) => {
    if (next.startAtLogin !== previous.startAtLogin) applyLoginItem(app, platform, next.startAtLogin, env, warn)
  })
}
