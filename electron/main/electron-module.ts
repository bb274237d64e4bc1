import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  Notification,
  screen,
  session,
  shell,
  Tray,
} from 'electron'
import type { ElectronApi } from './electron-api'

/** The real `electron` module as an `ElectronApi` (only loadable inside Electron, or with a mocked module). */
export function electronModule(): ElectronApi {
  return {
    app,
    BrowserWindow,
    Tray,
    Menu,
    Notification,
    nativeImage,
    nativeTheme,
    ipcMain,
    dialog,
    session,
    screen,
    shell,
  }
}
