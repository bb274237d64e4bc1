import type * as Electron from 'electron'

/**
 * The parts of the `electron` module the main process uses, passed in rather than imported, so that
 * every setup function can be driven in plain Node by unit tests with fakes (importing `electron`
 * outside Electron tries to download the binary and throws).
 */
export interface ElectronApi {
  app: Electron.App
  BrowserWindow: typeof Electron.BrowserWindow
  Tray: typeof Electron.Tray
  Menu: typeof Electron.Menu
  Notification: typeof Electron.Notification
  nativeImage: typeof Electron.nativeImage
  nativeTheme: Electron.NativeTheme
  ipcMain: Electron.IpcMain
  dialog: Electron.Dialog
  shell: Pick<Electron.Shell, 'openExternal'>
  session: typeof Electron.session
  screen?: Electron.Screen
}

/** The host platform, as `process.platform`; injected so tests can play macOS, Windows and Linux. */
export type Platform = NodeJS.Platform
