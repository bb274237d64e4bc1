// The app's update policy around electron-updater: which channel each build uses, when it checks,
// what "Check for Updates…" says, and that nothing ever installs while the app runs.
import { EventEmitter } from 'node:events'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSettingsStore } from '../../../electron/main/settings-store'
import type { SettingsStore } from '../../../electron/main/settings-store'
import { stringsFor } from '../../../electron/main/strings'
import { setupUpdates, updateChannel } from '../../../electron/main/updates'
import type { Updates, UpdatesOptions } from '../../../electron/main/updates'
import { DEFAULT_SETTINGS } from '../../../shared'
import { asElectron, fake, resetFakeElectron } from './fake-electron'

/** A scripted updater: answers each check with the next scripted result. */
class ScriptedUpdater extends EventEmitter {
  autoDownload = false
  autoInstallOnAppQuit = false
  checks = 0
  next: () => Promise<unknown> = async () => ({ isUpdateAvailable: false, updateInfo: { version: '0.1.0' } })
  checkForUpdates(): Promise<never> {
    this.checks += 1
    return this.next() as Promise<never>
  }
}

let settings: SettingsStore
let timers: Array<{ fn: () => void; ms: number; cleared: boolean }>
let warnings: string[]
let updates: Updates | undefined

async function start(updater: ScriptedUpdater | undefined, checkForUpdates = true): Promise<Updates> {
  settings = await openSettingsStore(
    { load: async () => ({ settings: { ...DEFAULT_SETTINGS, checkForUpdates } }), save: async () => {} },
    () => {},
  )
  updates = setupUpdates({
    updater: updater as unknown as UpdatesOptions['updater'],
    releasesUrl: 'https://github.com/ask-user-companion/ask-user-companion/releases',
    settings,
    strings: () => stringsFor('en', 'en'),
    dialog: asElectron(fake.dialog, 'Dialog'),
    shell: asElectron(fake.shell, 'Shell'),
    warn: (message) => void warnings.push(message),
    intervalMs: 1000,
    setInterval: (fn, ms) => {
      const timer = { fn, ms, cleared: false }
      timers.push(timer)
      return timer
    },
    clearInterval: (handle) => void ((handle as { cleared: boolean }).cleared = true),
  })
  return updates
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

beforeEach(() => {
  resetFakeElectron()
  timers = []
  warnings = []
})
afterEach(() => updates?.dispose())

describe('updateChannel', () => {
  it('AppImage only with APPIMAGE; a deb gets the release page; NSIS and macOS their updaters; nothing unpackaged', () => {
    expect(updateChannel('linux', { APPIMAGE: '/home/a/Ask.AppImage' }, true)).toBe('appimage')
    expect(updateChannel('linux', {}, true)).toBe('release-page')
    expect(updateChannel('win32', {}, true)).toBe('nsis')
    expect(updateChannel('darwin', {}, true)).toBe('mac')
    expect(updateChannel('linux', { APPIMAGE: '/x' }, false)).toBeUndefined()
  })
})

describe('setupUpdates', () => {
  it('downloads in the background and installs only on quit; checks at start and on a timer while the setting is on', async () => {
    const updater = new ScriptedUpdater()
    await start(updater)
    expect([updater.autoDownload, updater.autoInstallOnAppQuit]).toEqual([true, true])
    expect(updater.checks).toBe(1)
    expect(timers.map((t) => t.ms)).toEqual([1000])
    timers[0]!.fn()
    expect(updater.checks).toBe(2)
    await settings.update({ checkForUpdates: false })
    expect(timers[0]!.cleared).toBe(true)
    await settings.update({ checkForUpdates: true })
    expect(timers).toHaveLength(2)
    expect(timers[1]!.cleared).toBe(false)
  })

  it('with the setting off, checks only when asked', async () => {
    const updater = new ScriptedUpdater()
    await start(updater, false)
    expect(updater.checks).toBe(0)
    expect(timers).toEqual([])
    await updates!.checkNow()
    expect(updater.checks).toBe(1)
    expect(fake.dialog.boxes).toEqual([{ type: 'info', message: 'Ask User Companion is up to date', buttons: ['OK'] }])
  })

  it('says in words when a check fails, and warns about background failures', async () => {
    const updater = new ScriptedUpdater()
    updater.next = async () => Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'))
    await start(updater)
    await settle()
    expect(warnings).toEqual(['update check failed: net::ERR_INTERNET_DISCONNECTED'])
    await updates!.checkNow()
    expect(fake.dialog.boxes).toEqual([
      {
        type: 'error',
        message: 'Could not check for updates',
        detail: 'net::ERR_INTERNET_DISCONNECTED',
        buttons: ['OK'],
      },
    ])
    updater.emit('error', new Error('sha512 checksum mismatch'))
    expect(warnings.at(-1)).toBe('update check failed: sha512 checksum mismatch')
  })

  it('without an updater (a deb), Check for Updates… opens the release page', async () => {
    await start(undefined)
    await updates!.checkNow()
    expect(fake.shell.openExternal).toHaveBeenCalledWith(
      'https://github.com/ask-user-companion/ask-user-companion/releases',
    )
    expect(timers).toEqual([])
  })
})
