// Test helper: the whole desktop wiring (desktop.ts) started on Linux in `home` against the strict fake
// `electron` (the test file mocks it) and the real companion core.
import * as core from '../../../core'
import { startDesktop, type Desktop } from '../../../electron/main/desktop'
import { electronModule } from '../../../electron/main/electron-module'
import { asElectron, fake, playPlatform } from './fake-electron'
import { TEST_ICONS } from './helpers'

/** Starts the desktop app in `home`; its warnings go to `warnings`. Throws when it does not start. */
export async function startLinuxDesktop(home: string, warnings: string[]): Promise<Desktop> {
  playPlatform('linux')
  const started = await startDesktop({
    app: asElectron(fake.app, 'App'),
    electron: electronModule,
    core,
    icons: TEST_ICONS,
    platform: 'linux',
    argv: [],
    env: { ASK_USER_HOME: home, XDG_CONFIG_HOME: home },
    mainDir: '/opt/companion/resources/app.asar/out/main',
    warn: (message) => void warnings.push(message),
  })
  if (!started) throw new Error(`desktop did not start: ${warnings.join('; ')}`)
  return started
}
