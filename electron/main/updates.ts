import type * as Electron from 'electron'
import type { AppUpdater, UpdateInfo } from 'electron-updater'
import { errorMessage } from '../../shared/describe-error'
import type { Platform } from './electron-api'
import type { SettingsStore } from './settings-store'
import type { Strings } from './strings'

/** How often the app looks for a release while it runs, when the setting allows (6 hours). */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000

/**
 * Which updater a packaged app uses: electron-updater's for the AppImage (only when APPIMAGE names
 * it), the NSIS installer and macOS; a deb goes to the release page, since installing a .deb needs
 * root and belongs to the system's package manager, not to the app. Nothing when running unpackaged.
 */
export function updateChannel(
  platform: Platform,
  env: NodeJS.ProcessEnv,
  isPackaged: boolean,
): 'appimage' | 'nsis' | 'mac' | 'release-page' | undefined {
  if (!isPackaged) return undefined
  if (platform === 'win32') return 'nsis'
  if (platform === 'darwin') return 'mac'
  if (platform === 'linux') return env['APPIMAGE'] ? 'appimage' : 'release-page'
  return undefined
}

/** What the updater part of the app needs. */
export interface UpdatesOptions {
  /** electron-updater's updater for this channel; undefined for the release page or an unpackaged run. */
  updater: Pick<AppUpdater, 'checkForUpdates' | 'on' | 'autoDownload' | 'autoInstallOnAppQuit'> | undefined
  /** Where a deb (or any build without an updater) finds new releases. */
  releasesUrl: string
  settings: SettingsStore
  strings(): Strings
  dialog: Pick<Electron.Dialog, 'showMessageBox'>
  shell: Pick<Electron.Shell, 'openExternal'>
  warn(message: string): void
  intervalMs?: number
  setInterval?: (fn: () => void, ms: number) => unknown
  clearInterval?: (handle: unknown) => void
}

/** The running updater: the tray's "Check for updates…" and the shutdown. */
export interface Updates {
  /** The tray item's action: look now and say what was found (or open the release page). */
  checkNow(): Promise<void>
  dispose(): void
}

/**
 * Keeps the packaged app up to date without ever getting in the way of a question: a found release is
 * downloaded in the background, verified by electron-updater (sha512 from latest*.yml), and installed
 * only when the person quits (never `quitAndInstall`, so a pending ask is never cut). Checks at start
 * and every `intervalMs` while the "check for updates" setting is on; "Check for updates…" checks
 * at once and reports the result in a message box.
 */
export function setupUpdates(options: UpdatesOptions): Updates {
  const { updater } = options
  const every = options.intervalMs ?? UPDATE_CHECK_INTERVAL_MS
  const startTimer = options.setInterval ?? ((fn, ms) => setInterval(fn, ms))
  const stopTimer = options.clearInterval ?? ((handle) => clearInterval(handle as NodeJS.Timeout))
  let timer: unknown
  let downloaded: UpdateInfo | undefined

  if (updater) {
    updater.autoDownload = true
    updater.autoInstallOnAppQuit = true
    updater.on('update-downloaded', (info) => (downloaded = info))
    updater.on('error', (error) => options.warn(`update check failed: ${errorMessage(error)}`))
  }

  // A failed download is reported once, by the updater's `error` event (warned above).
  const ignoreDownload = (result: Awaited<ReturnType<AppUpdater['checkForUpdates']>>): void =>
    void result?.downloadPromise?.catch(() => undefined)
  const quietCheck = (): void => {
    if (!updater || !options.settings.get().checkForUpdates) return
    updater
      .checkForUpdates()
      .then(ignoreDownload, (error: unknown) => options.warn(`update check failed: ${errorMessage(error)}`))
  }
  const schedule = (on: boolean): void => {
    if (timer !== undefined) stopTimer(timer)
    timer = on && updater ? startTimer(quietCheck, every) : undefined
  }
  schedule(options.settings.get().checkForUpdates)
  quietCheck()
  const offSettings = options.settings.onChange((next, previous) => {
    if (next.checkForUpdates !== previous.checkForUpdates) schedule(next.checkForUpdates)
  })

  const tell = async (type: 'info' | 'error', message: string, detail?: string): Promise<void> => {
    await options.dialog.showMessageBox({ type, message, ...(detail ? { detail } : {}), buttons: ['OK'] })
  }

  return {
    async checkNow() {
      const strings = options.strings()
      if (!updater) {
        await options.shell.openExternal(options.releasesUrl)
        return
      }
      if (downloaded) return tell('info', strings.updateReady(downloaded.version), strings.updateInstallsOnQuit)
      try {
        const result = await updater.checkForUpdates()
        ignoreDownload(result)
        const found = result?.isUpdateAvailable ? result.updateInfo.version : undefined
        if (found) await tell('info', strings.updateDownloading(found), strings.updateInstallsOnQuit)
        else await tell('info', strings.upToDate)
      } catch (error) {
        await tell('error', strings.updateFailed, errorMessage(error))
      }
    },
    dispose() {
      offSettings()
      schedule(false)
    },
  }
}
