import { AppImageUpdater, MacUpdater, NsisUpdater } from 'electron-updater'
import type { AppUpdater } from 'electron-updater'
import { repository } from '../../package.json'
import type { updateChannel } from './updates'

/** The project's GitHub Releases page (package.json `repository` is the one place that names it). */
export const RELEASES_URL = `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/releases`

/**
 * electron-updater's updater for a channel; its feed is the `app-update.yml` electron-builder writes
 * into the package from the `publish` setting (GitHub Releases of `repository`).
 */
export function createUpdater(channel: ReturnType<typeof updateChannel>): AppUpdater | undefined {
  switch (channel) {
    case 'appimage':
      return new AppImageUpdater()
    case 'nsis':
      return new NsisUpdater()
    case 'mac':
      return new MacUpdater()
    default:
      return undefined
  }
}
