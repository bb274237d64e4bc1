// The desktop's wiring steps after its parts exist (desktop-context.ts), one per behaviour; each takes
// the context and nothing else, and adds its clean-up to the context's stop list.
import { commandLineAction } from './command-line-install'
import type { DesktopContext } from './desktop-context'
import { applyLoginItem } from './login-item'
import { setupNotifications } from './notifications'
import { setupQuit } from './quit'
import { setupTray } from './tray'
import type { CompanionTray } from './tray'
import { setupUnsignedNotice } from './unsigned-notice'
import { TOAST_ACTIVATOR_CLSID } from './windows-toast'

/**
 * Windows: toasts are matched to the Start Menu shortcut NSIS writes with electron-builder's appId, and
 * their buttons reach the app through a fixed activator CLSID; both are set before the first toast.
 */
export function windowsToastsStep(ctx: Pick<DesktopContext, 'app' | 'platform'>): void {
  if (ctx.platform !== 'win32') return
  ctx.app.setAppUserModelId('dev.askuser.companion')
  ctx.app.setToastActivatorCLSID(TOAST_ACTIVATOR_CLSID)
}

/** A new ask brings the window up (unless Do not disturb; never taking focus from the person typing). */
export function attentionStep(ctx: DesktopContext): void {
  ctx.companion.on('added', () => ctx.window.attention(ctx.settings.get().doNotDisturb))
}

/** System notifications for new asks, answerable from the toast where the platform allows. */
export function notificationsStep(ctx: DesktopContext): void {
  const stop = setupNotifications({
    Notification: ctx.electron.Notification,
    companion: ctx.companion,
    platform: ctx.platform,
    settings: () => ctx.settings.get(),
    strings: ctx.strings,
    windowFocused: () => ctx.window.isFocused(),
    shownAskId: () => ctx.hub.shownAskId(),
    onClick: ctx.openAsk,
    onOpen: () => ctx.window.show(),
  })
  ctx.onStop(stop)
}

/** A packaged macOS build without a Developer ID says once that notifications need a signed build. */
export function unsignedNoticeStep(ctx: DesktopContext): Promise<void> {
  return setupUnsignedNotice({
    platform: ctx.platform,
    isPackaged: ctx.app.isPackaged,
    resourcesPath: ctx.options.resourcesPath,
    home: ctx.home,
    companion: ctx.companion,
    dialog: ctx.electron.dialog,
    window: () => ctx.window.browserWindow,
    strings: ctx.strings,
    notificationsOn: () => ctx.settings.get().notifications && !ctx.settings.get().doNotDisturb,
    warn: ctx.warn,
  })
}

/** Quitting confirms with the person when asks are pending, runs the stop list, then stops the core. */
export function quitStep(ctx: DesktopContext): void {
  setupQuit({
    app: ctx.app,
    dialog: ctx.electron.dialog,
    companion: ctx.companion,
    strings: ctx.strings,
    window: () => ctx.window.browserWindow,
    beforeStop: ctx.stop,
    warn: ctx.warn,
  })
}

/** The tray icon and its menu: the pending asks, Do not disturb, Start at login, install, updates, quit. */
export function trayStep(ctx: DesktopContext): CompanionTray {
  const { app, electron, platform, env, settings, strings, updates } = ctx
  const tray = setupTray({
    ...electron,
    platform,
    companion: ctx.companion,
    settings,
    strings,
    icons: ctx.options.icons,
    window: () => ctx.window.browserWindow,
    actions: {
      openAsk: ctx.openAsk,
      open: () => ctx.window.show(),
      quit: ctx.quit,
      setStartAtLogin: (on) => void settings.update({ startAtLogin: on }),
      installCommandLine: commandLineAction({
        app,
        dialog: electron.dialog,
        platform,
        env,
        strings,
        resourcesPath: ctx.options.resourcesPath,
        warn: ctx.warn,
      }),
      ...(updates ? { checkForUpdates: () => void updates.checkNow() } : {}),
    },
  })
  ctx.onStop(() => tray.dispose())
  return tray
}

/** Keeps the OS login item in step with the "Start at login" setting, now and on every change. */
export function loginItemStep(ctx: DesktopContext): void {
  const { app, platform, settings, env, warn } = ctx
  applyLoginItem(app, platform, settings.get().startAtLogin, env, warn)
  settings.onChange((next, previous) => {
    if (next.startAtLogin !== previous.startAtLogin) applyLoginItem(app, platform, next.startAtLogin, env, warn)
  })
}

/** macOS: a click on the dock icon brings the window up. */
export function dockStep(ctx: DesktopContext): void {
  ctx.app.on('activate', () => ctx.window.show())
}
