// Start at login on each OS: Electron's login items on macOS and Windows, an XDG autostart entry on Linux.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyLoginItem, execArgument, launchedAtLogin } from '../../../electron/main/login-item'
import { asElectron, fake, playPlatform, resetFakeElectron } from './fake-electron'
import { tempHome } from './helpers'

let home: Awaited<ReturnType<typeof tempHome>>
let warnings: string[]
const app = () => asElectron(fake.app, 'App')
const warn = (message: string): void => void warnings.push(message)

beforeEach(async () => {
  resetFakeElectron()
  home = await tempHome()
  warnings = []
})
afterEach(() => home.cleanup())

describe('login item on macOS', () => {
  beforeEach(() => playPlatform('darwin'))

  it('registers the app itself, without arguments (macOS passes none to a login item)', () => {
    applyLoginItem(app(), 'darwin', true, {}, warn)
    applyLoginItem(app(), 'darwin', false, {}, warn)
    expect(fake.app.loginItemCalls).toEqual([{ openAtLogin: true }, { openAtLogin: false }])
    expect(warnings).toEqual([])
  })

  it('says so when macOS did not enable the login item', () => {
    fake.app.loginItemStatus = 'requires-approval'
    applyLoginItem(app(), 'darwin', true, {}, warn)
    fake.app.loginItemStatus = 'not-found'
    applyLoginItem(app(), 'darwin', true, {}, warn)
    expect(warnings).toEqual([
      'start at login waits for your approval in System Settings > General > Login Items',
      'start at login did not take effect (login item status: not-found; macOS needs a signed, notarized app)',
    ])
  })

  it('knows a launch at login from wasOpenedAtLogin', () => {
    expect(launchedAtLogin(app(), 'darwin', [])).toBe(false)
    fake.app.loginItem.wasOpenedAtLogin = true
    expect(launchedAtLogin(app(), 'darwin', [])).toBe(true)
  })
})

describe('login item on Windows', () => {
  beforeEach(() => playPlatform('win32'))

  it('registers the executable with --hidden, and knows a launch at login from that argument', () => {
    applyLoginItem(app(), 'win32', true, {}, warn)
    expect(fake.app.loginItemCalls).toEqual([{ openAtLogin: true, args: ['--hidden'] }])
    expect(launchedAtLogin(app(), 'win32', ['app.exe'])).toBe(false)
    expect(launchedAtLogin(app(), 'win32', ['app.exe', '--hidden'])).toBe(true)
  })
})

describe('login item on Linux', () => {
  beforeEach(() => playPlatform('linux'))

  it('writes and removes an XDG autostart entry (Electron has no login items on Linux)', async () => {
    const env = { XDG_CONFIG_HOME: home.home, APPIMAGE: '/home/me/Apps/Ask User Companion.AppImage' }
    const path = join(home.home, 'autostart', 'ask-user-companion.desktop')
    applyLoginItem(app(), 'linux', true, env, warn)
    expect(await readFile(path, 'utf8')).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Ask User Companion',
        'Exec="/home/me/Apps/Ask User Companion.AppImage" --hidden',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    )
    expect(launchedAtLogin(app(), 'linux', ['ask-user-companion', '--hidden'])).toBe(true)
    applyLoginItem(app(), 'linux', false, env, warn)
    await expect(readFile(path, 'utf8')).rejects.toThrow('ENOENT')
    expect(fake.app.loginItemCalls).toEqual([])
    expect(warnings).toEqual([])
  })

  it('quotes the executable as the Desktop Entry spec says (quote escapes, string escapes, %%)', () => {
    expect(execArgument('/opt/Ask User Companion/ask-user-companion')).toBe(
      '"/opt/Ask User Companion/ask-user-companion"',
    )
    expect(execArgument('/home/a"b/$HOME/`x`/100%/c\\d')).toBe('"/home/a\\\\"b/\\\\$HOME/\\\\`x\\\\`/100%%/c\\\\\\\\d"')
  })
})
