// electron-updater for real (AppImageUpdater, NsisUpdater) against a generic-provider feed on
// 127.0.0.1, inside the strict fake Electron: it downloads through the fake's `net.request`, checks
// nothing unpackaged (unless forceDevUpdateConfig), on Linux only with APPIMAGE set, and verifies each
// download's sha512 from latest*.yml.
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as ElectronUpdater from 'electron-updater'
import type { AppUpdater } from 'electron-updater'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { setupUpdates } from '../../../electron/main/updates'
import { openSettingsStore } from '../../../electron/main/settings-store'
import { stringsFor } from '../../../electron/main/strings'
import { DEFAULT_SETTINGS } from '../../../shared'
import { asElectron, electronMock, fake, resetFakeElectron } from './fake-electron'

// electron-updater is plain CommonJS from node_modules and requires `electron` itself (lazily), past
// vitest's module mocks: hand it the fake through Node's module cache.
const nodeRequire = createRequire(import.meta.url)
const electronId = nodeRequire.resolve('electron')
let updaterModule: typeof ElectronUpdater

beforeAll(() => {
  nodeRequire.cache[electronId] = {
    id: electronId,
    filename: electronId,
    loaded: true,
    exports: electronMock(),
  } as unknown as NodeModule
  updaterModule = nodeRequire('electron-updater')
})

interface Feed {
  url: string
  paths: string[]
  close(): Promise<void>
}

/** A generic-provider feed: `latest.yml` / `latest-linux.yml` naming one file, and that file. */
async function startFeed(options: { version: string; file: string; body: Buffer; sha512?: string }): Promise<Feed> {
  const sha512 = options.sha512 ?? createHash('sha512').update(options.body).digest('base64')
  const yml = [
    `version: ${options.version}`,
    'files:',
    `  - url: ${options.file}`,
    `    sha512: ${sha512}`,
    `    size: ${options.body.length}`,
    `path: ${options.file}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-12-01T00:00:00.000Z'",
    '',
  ].join('\n')
  const paths: string[] = []
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!
    paths.push(path)
    if (path === '/latest.yml' || path === '/latest-linux.yml')
      return void res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml)
    if (path === `/${options.file}`)
      return void res.writeHead(200, { 'content-length': options.body.length }).end(options.body)
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let dir: string
let feed: Feed | undefined
const savedEnv = { APPIMAGE: process.env['APPIMAGE'], XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] }
const NEW_BUILD = Buffer.from('the new build\n'.repeat(1000))

beforeEach(() => {
  resetFakeElectron()
  dir = mkdtempSync(join(tmpdir(), 'ask-user-updater-'))
  fake.app.isPackaged = true
  fake.app.paths['userData'] = join(dir, 'user-data')
  process.env['XDG_CACHE_HOME'] = join(dir, 'cache')
  writeFileSync(join(dir, 'old.AppImage'), 'the running build')
  process.env['APPIMAGE'] = join(dir, 'old.AppImage')
})

afterEach(async () => {
  await feed?.close()
  feed = undefined
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  rmSync(dir, { recursive: true, force: true })
})

function updater(kind: 'AppImageUpdater' | 'NsisUpdater', url: string): AppUpdater {
  const instance = new updaterModule[kind]()
  instance.logger = null
  // As electron-builder writes it into the package (no publisherName: nothing to verify on Windows).
  writeFileSync(
    join(dir, 'app-update.yml'),
    `provider: generic\nurl: ${url}\nupdaterCacheDirName: ask-user-companion-updater\n`,
  )
  instance.updateConfigPath = join(dir, 'app-update.yml')
  return instance
}

const downloaded = (u: AppUpdater) =>
  new Promise<{ version: string; downloadedFile: string }>((resolve, reject) => {
    u.once('update-downloaded', (info) => resolve(info as never))
    u.once('error', reject)
  })

describe.each([
  ['AppImageUpdater', 'Ask-User-Companion-0.2.0.AppImage'],
  ['NsisUpdater', 'Ask-User-Companion-Setup-0.2.0.exe'],
] as const)('%s against a local feed', (kind, file) => {
  it('no update: the feed has the running version', async () => {
    feed = await startFeed({ version: '0.1.0-test', file, body: NEW_BUILD })
    const result = await updater(kind, feed.url).checkForUpdates()
    expect(result?.isUpdateAvailable).toBe(false)
    expect(feed.paths.some((p) => p.endsWith('.yml'))).toBe(true)
    expect(fake.net.requests.length).toBeGreaterThan(0) // through Electron's net, not Node's
  })

  it('update available, then the download is verified and kept for install on quit', async () => {
    feed = await startFeed({ version: '0.2.0', file, body: NEW_BUILD })
    const u = updater(kind, feed.url)
    const done = downloaded(u)
    const result = await u.checkForUpdates()
    expect(result?.isUpdateAvailable).toBe(true)
    expect(result?.updateInfo.version).toBe('0.2.0')
    const info = await done
    expect(info.version).toBe('0.2.0')
    expect(readFileSync(info.downloadedFile)).toEqual(NEW_BUILD)
    expect(feed.paths).toContain(`/${file}`)
  })

  it('bad checksum: the download is refused', async () => {
    feed = await startFeed({
      version: '0.2.0',
      file,
      body: NEW_BUILD,
      sha512: createHash('sha512').update('something else').digest('base64'),
    })
    const u = updater(kind, feed.url)
    const failed = new Promise<Error>((resolve) => u.once('error', resolve))
    const result = await u.checkForUpdates()
    await expect(result?.downloadPromise).rejects.toThrow(/^sha512 checksum mismatch, expected /)
    expect((await failed).message).toMatch(/^sha512 checksum mismatch, expected /)
    expect(
      readdirSync(join(dir, 'cache', 'ask-user-companion-updater', 'pending')).filter((f) => f.endsWith(file)),
    ).toEqual([]) // nothing kept to install
  })
})

describe('when electron-updater stays quiet', () => {
  it('checks nothing unpackaged, unless forceDevUpdateConfig is set', async () => {
    feed = await startFeed({ version: '0.2.0', file: 'x.AppImage', body: NEW_BUILD })
    fake.app.isPackaged = false
    const u = updater('AppImageUpdater', feed.url)
    u.autoDownload = false
    expect(await u.checkForUpdates()).toBeNull()
    expect(feed.paths).toEqual([])
    u.forceDevUpdateConfig = true
    expect((await u.checkForUpdates())?.isUpdateAvailable).toBe(true)
  })

  it('on Linux, checks only as an AppImage (APPIMAGE set)', async () => {
    feed = await startFeed({ version: '0.2.0', file: 'x.AppImage', body: NEW_BUILD })
    delete process.env['APPIMAGE']
    expect(await updater('AppImageUpdater', feed.url).checkForUpdates()).toBeNull()
    expect(feed.paths).toEqual([])
  })
})

describe('setupUpdates with the real AppImageUpdater', () => {
  it('Check for Updates… says a release is downloading and installs on quit', async () => {
    feed = await startFeed({ version: '0.2.0', file: 'Ask-User-Companion-0.2.0.AppImage', body: NEW_BUILD })
    const u = updater('AppImageUpdater', feed.url)
    const settings = await openSettingsStore(
      { load: async () => ({ settings: { ...DEFAULT_SETTINGS, checkForUpdates: false } }), save: async () => {} },
      () => {},
    )
    const done = downloaded(u)
    const updates = setupUpdates({
      updater: u,
      releasesUrl: 'https://example.invalid/releases',
      settings,
      strings: () => stringsFor('en', 'en'),
      dialog: asElectron(fake.dialog, 'Dialog'),
      shell: asElectron(fake.shell, 'Shell'),
      warn: () => {},
    })
    expect(feed.paths).toEqual([]) // the setting is off: no check at start
    await updates.checkNow()
    expect(fake.dialog.boxes[0]).toMatchObject({ type: 'info', message: 'Version 0.2.0 is available and downloading' })
    expect(u.autoInstallOnAppQuit).toBe(true)
    await done
    await updates.checkNow()
    expect(fake.dialog.boxes[1]).toMatchObject({
      message: 'Version 0.2.0 is downloaded',
      detail: 'It installs when you quit the app, never while a question is waiting.',
    })
    updates.dispose()
  })
})
