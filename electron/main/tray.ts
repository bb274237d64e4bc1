import { readFileSync } from 'node:fs'
import type * as Electron from 'electron'
import type { Platform } from './electron-api'
import type { DesktopCompanion } from './companion'
import type { IconPair, TrayIconPaths } from './icon-paths'
import type { SettingsStore } from './settings-store'
import type { Strings } from './strings'
import { trayMenuTemplate } from './tray-menu'
import type { TrayMenuActions } from './tray-menu'

export interface TrayOptions {
  Tray: typeof Electron.Tray
  Menu: typeof Electron.Menu
  nativeImage: typeof Electron.nativeImage
  nativeTheme: Electron.NativeTheme
  app: Electron.App
  platform: Platform
  companion: DesktopCompanion
  settings: SettingsStore
  strings(): Strings
  icons: TrayIconPaths
  /** The window whose taskbar button gets the overlay on Windows. */
  window(): Electron.BrowserWindow | undefined
  actions: Omit<TrayMenuActions, 'setDoNotDisturb' | 'setStartAtLogin'> & {
    setStartAtLogin(on: boolean): void
  }
}

/** The tray icon, kept in step with the pending asks, the settings and the OS theme. */
export interface CompanionTray {
  readonly tray: Electron.Tray
  /** Redraws the count, icon, tooltip and menu from the current state. */
  refresh(): void
  dispose(): void
}

/**
 * Creates the tray icon and keeps it current: the pending count shows as the menu-bar title on macOS
 * (with a template icon that macOS tints for light and dark bars), and elsewhere as the tooltip, an
 * icon variant with a red dot (dark or light glyph following the taskbar's theme on Windows, the
 * desktop theme on Linux) and, on Windows, a taskbar overlay; the app badge count is set where
 * Electron has one (the macOS dock, Linux launchers speaking the LauncherEntry D-Bus API).
 */
export function setupTray(options: TrayOptions): CompanionTray {
  const { platform, companion, settings } = options
  const image = (pair: IconPair): Electron.NativeImage => {
    const img = options.nativeImage.createFromPath(pair.x1)
    try {
      img.addRepresentation({ scaleFactor: 2, buffer: readFileSync(pair.x2) })
    } catch {
      // the 1x rendition alone is still a usable icon
    }
    return img
  }
  const template = platform === 'darwin' ? image(options.icons.template) : undefined
  template?.setTemplateImage(true)

  // Is the task bar / panel dark? On Windows the taskbar has a theme of its own, apart from the apps'
  // theme (which `shouldUseDarkColors` reports, and which the person's theme setting overrides).
  const darkBar = (): boolean =>
    platform === 'win32'
      ? options.nativeTheme.shouldUseDarkColorsForSystemIntegratedUI
      : options.nativeTheme.shouldUseDarkColors
  const iconFor = (count: number): Electron.NativeImage => {
    if (template) return template
    const dark = darkBar()
    const pair =
      count > 0
        ? dark
          ? options.icons.darkPending
          : options.icons.lightPending
        : dark
          ? options.icons.dark
          : options.icons.light
    return image(pair)
  }

  const tray = new options.Tray(iconFor(0))
  let lastIconKey = ''

  const refresh = (): void => {
    const pending = companion.pending()
    const count = pending.length
    const strings = options.strings()
    const iconKey = `${count > 0}:${template ? 'template' : darkBar()}`
    if (iconKey !== lastIconKey) {
      lastIconKey = iconKey
      tray.setImage(iconFor(count))
    }
    if (platform === 'darwin') tray.setTitle(count > 0 ? String(count) : '')
    tray.setToolTip(strings.pendingTooltip(count))
    if (platform === 'darwin' || platform === 'linux') options.app.setBadgeCount(count)
    if (platform === 'win32') {
      const win = options.window()
      if (win && !win.isDestroyed()) {
        win.setOverlayIcon(
          count > 0 ? image(options.icons.overlay) : null,
          count > 0 ? strings.pendingTooltip(count) : '',
        )
      }
    }
    const current = settings.get()
    const menu = options.Menu.buildFromTemplate(
      trayMenuTemplate(
        { pending, doNotDisturb: current.doNotDisturb, startAtLogin: current.startAtLogin },
        strings,
        {
          ...options.actions,
          setDoNotDisturb: (on) => void settings.update({ doNotDisturb: on }),
        },
        platform,
      ),
    )
    tray.setContextMenu(menu)
  }

  // Windows and Linux open the menu on right click; a left click opens the window.
  if (platform !== 'darwin') tray.on('click', () => options.actions.open())

  const offs = [companion.on('added', refresh), companion.on('resolved', refresh), settings.onChange(refresh)]
  options.nativeTheme.on('updated', refresh)
  refresh()

  return {
    tray,
    refresh,
    dispose() {
      for (const off of offs) off()
      options.nativeTheme.removeListener('updated', refresh)
      if (!tray.isDestroyed()) tray.destroy()
    },
  }
}
