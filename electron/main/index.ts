// Electron main process entry: everything is wired in desktop.ts; this file only hands it the real
// electron module, the companion core and the environment. Started by the `ask-user` launcher
// (ASK_USER_CLI=1), the same executable is the command line instead.
import { app } from 'electron'
import * as core from '../../core'
import { isCommandLineMode, runCommandLine } from './command-line-mode'
import type { CliBundle } from './command-line-mode'
import { startDesktop } from './desktop'
import { electronModule } from './electron-module'
import { TRAY_ICON_PATHS } from './icon-paths'
import { createUpdater, RELEASES_URL } from './updater-factory'

if (isCommandLineMode(process.env)) {
  runCommandLine({
    app,
    argv: process.argv,
    env: process.env,
    mainDir: __dirname,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CLI bundle is a file beside this one, loaded only in this mode
    load: (path) => require(path) as CliBundle,
  })
} else {
  void startDesktop({
    app,
    electron: electronModule,
    core,
    icons: TRAY_ICON_PATHS,
    platform: process.platform,
    argv: process.argv,
    env: process.env,
    mainDir: __dirname,
    resourcesPath: process.resourcesPath,
    createUpdater,
    releasesUrl: RELEASES_URL,
  })
}
