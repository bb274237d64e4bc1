// Electron main process entry: everything is wired in desktop.ts; this file only hands it the real
// electron module, the companion core and the environment.
import { app } from 'electron'
import * as core from '../core'
import { startDesktop } from './desktop'
import { electronModule } from './electron-module'
import { TRAY_ICON_PATHS } from './icon-paths'

void startDesktop({
  app,
  electron: electronModule,
  core,
  icons: TRAY_ICON_PATHS,
  platform: process.platform,
  argv: process.argv,
  env: process.env,
  mainDir: __dirname,
})
