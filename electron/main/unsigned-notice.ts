import { readFileSync } from 'node:fs'
import { access } from 'node:fs/promises'
import { join } from 'node:path'
import type * as Electron from 'electron'
import type { DesktopCompanion } from './companion'
import type { Platform } from './electron-api'
import type { Strings } from './strings'
import { writeFileAtomic } from '../../core/private-files'

/**
 * The file scripts/dist.mjs writes into the app's resources: `{"macDeveloperId": true}` when the macOS
 * build is signed with a Developer ID (CSC_LINK given, not the ad-hoc identity `-`), else `false`.
 */
export const SIGNING_FILE = 'signing.json'
/** In the companion's home: the note has been shown. */
export const NOTICE_MARKER = 'unsigned-notice-shown'

/**
 * Whether this build is Developer-ID signed, as the release build recorded it. Absent or unreadable
 * (a development run, a build from before the file existed) counts as not signed. Nothing at run time
 * tells it reliably: macOS drops an ad-hoc signed app's notifications without a `failed` event.
 */
export function macDeveloperIdSigned(resourcesPath: string | undefined): boolean {
  if (resourcesPath === undefined) return false
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(resourcesPath, SIGNING_FILE), 'utf8'))
    return (
      typeof parsed === 'object' && parsed !== null && (parsed as Record<string, unknown>)['macDeveloperId'] === true
    )
  } catch {
    return false
  }
}

export interface UnsignedNoticeOptions {
  platform: Platform
  isPackaged: boolean
  resourcesPath: string | undefined
  home: string
  companion: Pick<DesktopCompanion, 'on'>
  dialog: Pick<Electron.Dialog, 'showMessageBox'>
  window(): Electron.BrowserWindow
  strings(): Strings
  /** Whether notifications are on (the note is about them). */
  notificationsOn(): boolean
  warn(message: string): void
}

/**
 * On a packaged macOS build without a Developer ID signature, says once (per home folder), in a
 * message box on the window when the first ask arrives, that notifications need a signed build.
 */
export async function setupUnsignedNotice(options: UnsignedNoticeOptions): Promise<void> {
  if (options.platform !== 'darwin' || !options.isPackaged || macDeveloperIdSigned(options.resourcesPath)) return
  const marker = join(options.home, NOTICE_MARKER)
  const seen = await access(marker).then(
    () => true,
    () => false,
  )
  if (seen) return
  const off = options.companion.on('added', () => {
    if (!options.notificationsOn()) return
    off()
    const strings = options.strings()
    void options.dialog.showMessageBox(options.window(), {
      type: 'info',
      message: strings.unsignedTitle,
      detail: strings.unsignedDetail,
      buttons: ['OK'],
    })
    writeFileAtomic(marker, '').catch((error: Error) => options.warn(`unsigned-build note: ${error.message}`))
  })
}
