// The whole main-process wiring (desktop.ts) against a mocked `electron` and the real companion core
// (port 0, a temp home), with real agents over WebSocket.
import { existsSync } from 'node:fs'
import { mkdir, readFile, readlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NOTIFICATION_ARMING_MS } from '../../../electron/main/notifications'
import * as core from '../../../core'
import { startDesktop } from '../../../electron/main/desktop'
import type { Desktop } from '../../../electron/main/desktop'
import type { Platform } from '../../../electron/main/electron-api'
import { electronModule } from '../../../electron/main/electron-module'
import { IPC_CHANNELS } from '../../../shared/ipc'
import { NOTICE_MARKER, SIGNING_FILE } from '../../../electron/main/unsigned-notice'
import { TOAST_ACTIVATOR_CLSID } from '../../../electron/main/windows-toast'
import { askFrame, helloAgent } from '../core/raw-agent'
import type { RawAgent } from '../core/raw-agent'
import {
  asElectron,
  fake,
  FakeApp,
  FakeBrowserWindow,
  FakeFrame,
  FakeNotification,
  FakeTray,
  FakeWebContents,
  fakeEvent,
  ipcEvent,
  playPlatform,
  resetFakeElectron,
} from './fake-electron'
import type { FakeMenu } from './fake-electron'
import { tempHome, TEST_ICONS, until } from './helpers'

vi.mock('electron', async () => (await import('./fake-electron')).electronMock())

let home: Awaited<ReturnType<typeof tempHome>>
let desktop: Desktop | undefined
let agents: RawAgent[] = []
const warnings: string[] = []

async function start(platform: Platform = 'darwin', resourcesPath?: string): Promise<Desktop> {
  playPlatform(platform)
  const started = await startDesktop({
    app: asElectron(fake.app, 'App'),
    electron: electronModule,
    core,
    icons: TEST_ICONS,
    platform,
    argv: [],
    env: { ASK_USER_HOME: home.home, XDG_CONFIG_HOME: home.home },
    mainDir: '/opt/companion/resources/app.asar/out/main',
    ...(resourcesPath ? { resourcesPath } : {}),
    warn: (message) => void warnings.push(message),
  })
  if (!started) throw new Error(`desktop did not start: ${warnings.join('; ')}`)
  desktop = started
  return started
}

const win = (): FakeBrowserWindow => FakeBrowserWindow.instances[0]!
const tray = (): FakeTray => FakeTray.instances[0]!
const menu = (): FakeMenu => tray().menu!
const frames = (): unknown[] => win().webContents.on_(IPC_CHANNELS.uiFrame)

async function agent(name = 'Claude Code'): Promise<RawAgent> {
  const a = await helloAgent(desktop!.companion as core.Companion, name)
  agents.push(a)
  return a
}

beforeEach(async () => {
  resetFakeElectron()
  home = await tempHome()
  warnings.length = 0
})

afterEach(async () => {
  for (const a of agents) a.socket.terminate()
  agents = []
  await desktop?.companion.close()
  desktop = undefined
  await home.cleanup()
})

describe('window and security', () => {
  it('reads settings.json once at start: a corrupt file warns once, and the defaults apply', async () => {
    await writeFile(`${home.home}/settings.json`, '{ not json')
    await start()
    expect(warnings.filter((w) => w.includes('settings.json'))).toHaveLength(1)
    expect(warnings.find((w) => w.includes('settings.json'))).toMatch(/is not valid JSON .*; using default settings$/)
    expect(desktop!.settings.get().language).toBe('system')
  })

  it('passes the language setting to the page as ?lang= (nothing when it follows the system)', async () => {
    await start()
    expect(win().loadOptions).toBeUndefined()
    await desktop!.companion.close()
    desktop = undefined
    resetFakeElectron()
    await writeFile(`${home.home}/settings.json`, JSON.stringify({ language: 'zh' }))
    await start()
    expect(win().loadOptions).toEqual({ query: { lang: 'zh' } })
  })

  it('hardens the web preferences and loads only the built page', async () => {
    await start()
    expect(win().options['webPreferences']).toEqual({
      preload: '/opt/companion/resources/app.asar/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    })
    expect(win().loaded).toEqual({ kind: 'file', target: '/opt/companion/resources/app.asar/out/renderer/index.html' })
  })

  it('prevents navigation, denies new windows and every permission, and sets the CSP header', async () => {
    await start()
    const contents = win().webContents
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = fakeEvent()
      contents.emit(name, event, 'https://evil.example/')
      expect(event.defaultPrevented, name).toBe(true)
    }
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' })

    const session = fake.session.defaultSession
    const granted = await new Promise<boolean>((resolve) =>
      session.permissionRequestHandler?.(contents, 'media', resolve),
    )
    expect(granted).toBe(false)
    expect(session.permissionCheckHandler?.(contents, 'notifications')).toBe(false)
    const response = await new Promise<any>((resolve) =>
      session.headersListener?.({ responseHeaders: { a: ['b'] } }, resolve),
    )
    expect(response.responseHeaders.a).toEqual(['b'])
    expect(response.responseHeaders['Content-Security-Policy'][0]).toContain(
      "default-src 'self'; script-src 'self'; connect-src 'self'",
    )
  })

  it('hides to the tray on close and remembers its size and position', async () => {
    await start()
    win().bounds = { x: 40, y: 50, width: 900, height: 700 }
    expect(win().close()).toBe(true)
    expect(win().visible).toBe(false)
    await until(() => warnings.length > 0 || FakeBrowserWindow.instances.length > 0, 'save')
    await vi.waitFor(async () => {
      expect(JSON.parse(await readFile(`${home.home}/window-state.json`, 'utf8'))).toEqual({
        x: 40,
        y: 50,
        width: 900,
        height: 700,
        maximized: false,
      })
    })
  })

  it('a second instance focuses the first; a second process exits 0', async () => {
    await start()
    win().hide()
    fake.app.emit('second-instance', fakeEvent(), ['companion'], '/')
    expect(win().visible).toBe(true)
    expect(win().focused).toBe(true)

    const second = resetSecondProcess()
    const result = await startDesktop({
      app: asElectron(second, 'App'),
      electron: electronModule,
      core,
      icons: TEST_ICONS,
      platform: 'linux',
      argv: [],
      env: { ASK_USER_HOME: home.home },
      mainDir: '/x/out/main',
    })
    expect(result).toBeUndefined()
    expect(second.exitCode).toBe(0)
  })
})

function resetSecondProcess(): FakeApp {
  const second = new FakeApp()
  second.gotLock = false
  return second
}

describe('tray', () => {
  it.skipIf(process.platform === 'win32')(
    'offers Install Command Line Tool… in the packaged app, which links ask-user and says so (a symlink: POSIX only)',
    async () => {
      const resources = join(home.home, 'App', 'resources')
      await mkdir(join(resources, 'bin'), { recursive: true })
      await writeFile(join(resources, 'bin', 'ask-user'), '#!/bin/sh\n', { mode: 0o755 })
      fake.app.isPackaged = true
      fake.app.paths['home'] = home.home
      await start('linux', resources)
      expect(menu().template.map((i) => i.label ?? i.type)).toEqual([
        'No questions waiting',
        'separator',
        'Open',
        'Do not disturb',
        'Start at login',
        'Install Command Line Tool…',
        'separator',
        'Quit',
      ])
      menu().click('install-command-line')
      await until(() => fake.dialog.boxes.length === 1, 'the dialog saying what was installed')
      const target = join(home.home, '.local', 'bin', 'ask-user')
      expect(fake.dialog.boxes[0]).toMatchObject({
        type: 'info',
        message: 'The ask-user command is installed',
        detail: expect.stringContaining(`Installed ${target}`),
      })
      expect(await readlink(target)).toBe(join(resources, 'bin', 'ask-user'))
    },
  )

  it('shows the pending count (macOS title) and lists the pending asks, following the registry', async () => {
    await start('darwin')
    expect(tray().title).toBe('')
    expect(tray().image.template).toBe(true)
    expect(menu().template.map((i) => i.label ?? i.type)).toEqual([
      'No questions waiting',
      'separator',
      'Open',
      'Do not disturb',
      'Start at login',
      'separator',
      'Quit',
    ])

    const a = await agent('Claude Code')
    a.send(askFrame('w1'))
    await until(() => tray().title === '1', 'tray title 1')
    const b = await agent('Codex & co')
    b.send(askFrame('w2', { questions: [{ id: 'q', header: 'Deploy', question: 'Ship it?' }] }))
    await until(() => tray().title === '2', 'tray title 2')
    expect(fake.app.badgeCount).toBe(2)
    expect(tray().tooltip).toBe('Ask User Companion: 2 questions waiting')
    expect(
      menu()
        .template.slice(0, 2)
        .map((i) => i.label),
    ).toEqual(['Claude Code — Which database?', 'Codex & co — Deploy'])

    a.send({ type: 'cancel', id: 'w1' })
    await until(() => tray().title === '1', 'tray title back to 1')
    expect(menu().template[0]!.label).toBe('Codex & co — Deploy')
    b.socket.close()
    await until(() => tray().title === '', 'tray title empty')
    expect(fake.app.badgeCount).toBe(0)
  })

  it('on Linux shows the count in the tooltip, a pending icon for the theme and escapes & in labels', async () => {
    fake.nativeTheme.shouldUseDarkColors = true
    await start('linux')
    expect(tray().image.path).toBe(TEST_ICONS.dark.x1)
    expect(tray().image.representations).toEqual([{ scaleFactor: 2 }])
    const a = await agent('R&D bot')
    a.send(askFrame('w1'))
    await until(() => tray().tooltip === 'Ask User Companion: 1 question waiting', 'tooltip')
    expect(tray().image.path).toBe(TEST_ICONS.darkPending.x1)
    expect(fake.app.badgeCount).toBe(1)
    expect(menu().template[0]!.label).toBe('R&&D bot — Which database?')
    fake.nativeTheme.shouldUseDarkColors = false
    fake.nativeTheme.emit('updated')
    expect(tray().image.path).toBe(TEST_ICONS.lightPending.x1)
  })

  it('on Windows follows the taskbar theme, sets the overlay and the login item with --hidden', async () => {
    fake.nativeTheme.shouldUseDarkColors = false // the apps' theme: light
    fake.nativeTheme.shouldUseDarkColorsForSystemIntegratedUI = true // the taskbar: dark
    await start('win32')
    expect(fake.app.appUserModelId).toBe('dev.askuser.companion')
    expect(tray().image.path).toBe(TEST_ICONS.dark.x1)
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => tray().tooltip === 'Ask User Companion: 1 question waiting', 'tooltip')
    expect(tray().image.path).toBe(TEST_ICONS.darkPending.x1)
    expect(win().overlay?.description).toBe('Ask User Companion: 1 question waiting')
    expect(fake.app.badgeCount).toBe(0) // no app badge on Windows
    menu().click('start-at-login')
    expect(fake.app.loginItemCalls).toEqual([
      { openAtLogin: false, args: ['--hidden'] },
      { openAtLogin: true, args: ['--hidden'] },
    ])
    fake.nativeTheme.shouldUseDarkColorsForSystemIntegratedUI = false
    fake.nativeTheme.emit('updated')
    expect(tray().image.path).toBe(TEST_ICONS.lightPending.x1)
  })

  it('clicking an ask in the menu shows the window and asks the page to focus that ask', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => desktop!.companion.pending().length === 1, 'pending ask')
    const askId = desktop!.companion.pending()[0]!.askId
    win().hide()
    menu().click(`ask:${askId}`)
    expect(win().visible && win().focused).toBe(true)
    // not subscribed yet: the request waits for the page
    expect(win().webContents.on_(IPC_CHANNELS.focusAsk)).toEqual([])
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(win().webContents))
    expect(win().webContents.on_(IPC_CHANNELS.focusAsk)).toEqual([{ askId }])
    // subscribed: sent at once
    desktop!.openAsk(askId)
    expect(win().webContents.on_(IPC_CHANNELS.focusAsk)).toEqual([{ askId }, { askId }])
  })

  it('Do not disturb and Start at login are saved in settings.json; Start at login sets the login item', async () => {
    await start('darwin')
    menu().click('do-not-disturb')
    menu().click('start-at-login')
    await vi.waitFor(async () => {
      const saved = JSON.parse(await readFile(`${home.home}/settings.json`, 'utf8'))
      expect([saved.doNotDisturb, saved.startAtLogin]).toEqual([true, true])
    })
    expect(fake.app.loginItemCalls.at(-1)).toEqual({ openAtLogin: true }) // `args` is a Windows-only option
    expect(menu().template.find((i) => i.id === 'do-not-disturb')!.checked).toBe(true)

    // Do not disturb: a new ask neither shows the window nor notifies
    win().hide()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => tray().title === '1', 'ask arrived')
    expect(win().visible).toBe(false)
  })
})

describe('IPC relay', () => {
  it('subscribes the page, relays an answer to the agent and the settlement back', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => desktop!.companion.pending().length === 1, 'pending ask')
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(win().webContents))
    const snapshot = frames()[0] as { type: string; pending: Array<{ askId: string }> }
    expect(snapshot.type).toBe('snapshot')
    const askId = snapshot.pending[0]!.askId

    fake.ipcMain.emit(IPC_CHANNELS.send, ipcEvent(win().webContents), {
      type: 'ask/answer',
      askId,
      answers: [{ id: 'q1', selected: ['SQLite'] }],
    })
    expect(await a.next((f) => f.type === 'answer')).toEqual({
      type: 'answer',
      id: 'w1',
      answers: [{ id: 'q1', selected: ['SQLite'] }],
    })
    await until(() => frames().some((f: any) => f.type === 'ask/accepted'), 'accepted frame')
    expect(frames()).toContainEqual({ type: 'ask/accepted', askId, outcome: 'answered' })
    expect(frames()).toContainEqual({ type: 'ask/settled', askId, outcome: 'answered' })
  })

  it('refuses IPC from a sub-frame, another webContents or a foreign page', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => desktop!.companion.pending().length === 1, 'pending ask')
    const askId = desktop!.companion.pending()[0]!.askId
    const answer = { type: 'ask/answer', askId, answers: [{ id: 'q1', selected: ['SQLite'] }] }
    const contents = win().webContents

    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(contents, new FakeFrame(contents.mainFrame.url)))
    const stranger = new FakeWebContents(contents.mainFrame.url)
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(stranger))
    expect(stranger.sent).toEqual([])
    contents.mainFrame.url = 'https://evil.example/'
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(contents))
    fake.ipcMain.emit(IPC_CHANNELS.send, ipcEvent(contents), answer)
    expect(contents.sent).toEqual([])
    expect(warnings.filter((w) => w.startsWith('ipc: refused'))).toEqual([
      "ipc: refused: sender is not the question window's main frame",
      "ipc: refused: sender is not the question window's main frame",
      'ipc: refused: sender page is not the app (https://evil.example/)',
      'ipc: refused: sender page is not the app (https://evil.example/)',
    ])
    expect(desktop!.companion.pending()).toHaveLength(1)
  })

  it('refuses a payload that is not a UiClientFrame', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => desktop!.companion.pending().length === 1, 'pending ask')
    const askId = desktop!.companion.pending()[0]!.askId
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(win().webContents))
    fake.ipcMain.emit(IPC_CHANNELS.send, ipcEvent(win().webContents), { type: 'ask/answer', askId, answers: 'SQLite' })
    fake.ipcMain.emit(IPC_CHANNELS.send, ipcEvent(win().webContents), { type: 'shell', command: 'rm -rf /' })
    expect(frames().slice(1)).toEqual([
      {
        type: 'ask/rejected',
        askId,
        code: 'INVALID_FRAME',
        reason: 'invalid ask/answer frame: "answers" must be an array',
      },
    ])
    expect(warnings.filter((w) => w.startsWith('ipc: refused'))).toEqual([
      'ipc: refused: invalid frame: invalid ask/answer frame: "answers" must be an array',
      'ipc: refused: invalid frame: unknown frame type "shell"',
    ])
    expect(desktop!.companion.pending()).toHaveLength(1)
  })
})

describe('links from agent text (companion:open-link)', () => {
  it('main checks the URL again, asks with the full URL and punycode host, and opens only on confirm', async () => {
    await start()
    fake.dialog.response = 1 // Cancel
    fake.ipcMain.emit(IPC_CHANNELS.openLink, ipcEvent(win().webContents), { url: 'https://раypal.com/login?x=1' })
    await until(() => fake.dialog.boxes.length === 1, 'the link dialog')
    expect(fake.dialog.showMessageBox.mock.calls.at(-1)).toHaveLength(2) // (window, options): a sheet of our window
    expect(fake.dialog.boxes[0]).toEqual({
      type: 'question',
      message: 'Open a link to xn--ypal-43d9g.com in your browser?',
      detail:
        'https://xn--ypal-43d9g.com/login?x=1\n\nThe link comes from an agent. Check the address before you open it.',
      buttons: ['Open link', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    })
    expect(fake.shell.opened).toEqual([])

    fake.dialog.response = 0 // Open link
    fake.ipcMain.emit(IPC_CHANNELS.openLink, ipcEvent(win().webContents), { url: 'https://example.com/docs' })
    await until(() => fake.shell.opened.length === 1, 'openExternal')
    expect(fake.shell.opened).toEqual(['https://example.com/docs'])
  })

  it('refuses other protocols, bad payloads and foreign senders without asking', async () => {
    await start()
    for (const url of [
      'smb://attacker.example/share',
      'vscode://file/x',
      'file:///etc/passwd',
      'java\tscript:alert(1)',
    ]) {
      fake.ipcMain.emit(IPC_CHANNELS.openLink, ipcEvent(win().webContents), { url })
    }
    fake.ipcMain.emit(IPC_CHANNELS.openLink, ipcEvent(win().webContents), 'https://example.com')
    fake.ipcMain.emit(IPC_CHANNELS.openLink, ipcEvent(win().webContents, null), { url: 'https://example.com' })
    expect(warnings.filter((w) => w.startsWith('ipc: refused'))).toEqual([
      ...Array(4).fill('ipc: refused: a link that is not an absolute http or https URL'),
      'ipc: refused: invalid open-link request',
      "ipc: refused: sender is not the question window's main frame",
    ])
    expect(fake.dialog.boxes).toEqual([])
    expect(fake.shell.opened).toEqual([])
  })
})

describe('answering from notifications', () => {
  it('on Windows sets the AppUserModelId and the fixed toast activator CLSID, and a toast button answers the agent once', async () => {
    await start('win32')
    expect(fake.app.appUserModelId).toBe('dev.askuser.companion')
    expect(fake.app.toastActivatorCLSID).toBe(TOAST_ACTIVATOR_CLSID)
    expect(FakeNotification.activationHandler).toBeDefined()
    win().focus = () => void win().calls.push('focus')
    const a = await agent('Codex')
    const raw: string[] = []
    a.socket.on('message', (data) => void raw.push(String(data)))
    a.send(askFrame('w1'))
    await until(() => FakeNotification.instances.length === 1, 'notification')
    const note = FakeNotification.instances[0]!
    expect(note.options.actions?.map((action) => action.text)).toEqual(['Postgres (Recommended)', 'SQLite'])
    // A press within 600 ms of the toast showing only opens the window (notifications.ts): move the
    // wall clock past that, leaving timers real.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + NOTIFICATION_ARMING_MS)
    try {
      note.pressButton(0) // Windows reports it twice: the instance's event and handleActivation
    } finally {
      vi.useRealTimers()
    }
    await until(() => raw.some((text) => text.includes('"type":"answer"')), 'the answer at the agent')
    expect(raw.filter((text) => text.includes('"type":"answer"'))).toEqual([
      '{"type":"answer","id":"w1","answers":[{"id":"q1","selected":["Postgres (Recommended)"]}]}',
    ])
    await until(() => tray().tooltip === 'Ask User Companion', 'tray count back to 0')
    expect(FakeNotification.instances).toHaveLength(1)
  })

  it('a packaged macOS build without a Developer ID says once, in the window, that notifications need a signed build', async () => {
    const resources = join(home.home, 'App', 'resources')
    await mkdir(resources, { recursive: true })
    fake.app.isPackaged = true
    await start('darwin', resources)
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => fake.dialog.boxes.length === 1, 'the note')
    expect(fake.dialog.boxes[0]).toMatchObject({ type: 'info', message: 'Notifications need a signed build' })
    await until(() => existsSync(join(home.home, NOTICE_MARKER)), 'the note remembered')
    a.send(askFrame('w2'))
    await until(() => desktop!.companion.pending().length === 2, 'second ask')
    expect(fake.dialog.boxes).toHaveLength(1)
  })

  it('a Developer-ID signed macOS build (signing.json from the release build) says nothing', async () => {
    const resources = join(home.home, 'App', 'resources')
    await mkdir(resources, { recursive: true })
    await writeFile(join(resources, SIGNING_FILE), JSON.stringify({ macDeveloperId: true }))
    fake.app.isPackaged = true
    await start('darwin', resources)
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => FakeNotification.instances.length === 1, 'notification')
    expect(fake.dialog.boxes).toEqual([])
  })
})

describe('attention', () => {
  it('a new ask shows and focuses the window, and notifies once', async () => {
    await start()
    const a = await agent('Gemini CLI')
    a.send(askFrame('w1', { questions: [{ id: 'q1', header: 'Tests', question: 'Run the slow tests too?' }] }))
    await until(() => win().visible, 'window shown')
    expect(win().focused).toBe(true)
    // focused, but the page has not reported what it shows: one notification, at once (a lone reply ask)
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['Gemini CLI'])
  })

  it('notifies when the window is not focused, and a click opens that ask', async () => {
    await start()
    win().focus = () => void win().calls.push('focus') // the OS refused focus (another app is frontmost)
    const a = await agent('Gemini CLI')
    a.send(askFrame('w1', { questions: [{ id: 'q1', header: 'Tests', question: 'Run the slow tests too?' }] }))
    await until(() => FakeNotification.instances.length === 1, 'notification')
    const note = FakeNotification.instances[0]!
    expect(note.options).toMatchObject({ title: 'Gemini CLI', body: 'Tests: Run the slow tests too?', silent: false })
    expect(note.shown).toBe(true)
    win().hide()
    note.emit('click')
    expect(win().visible).toBe(true)
  })

  it('a focused window is quiet only about the agent on screen: another agent still notifies', async () => {
    await start()
    const a = await agent('Claude Code')
    a.send(askFrame('a1'))
    await until(() => win().focused, 'window focused')
    // focused, but the window has not reported what it shows yet: the first ask still notifies
    await until(() => FakeNotification.instances.length === 1, 'notification before the first companion:shown')
    expect(FakeNotification.instances[0]!.options).toMatchObject({ title: 'Claude Code' })
    fake.ipcMain.emit(IPC_CHANNELS.subscribe, ipcEvent(win().webContents))
    const shown = desktop!.companion.pending()[0]!.askId
    fake.ipcMain.emit(IPC_CHANNELS.shown, ipcEvent(win().webContents), { askId: shown })
    const b = await agent('Codex')
    b.send(askFrame('b1'))
    await until(() => FakeNotification.instances.length === 2, 'notification for the other agent')
    expect(FakeNotification.instances[1]!.options).toMatchObject({ title: 'Codex' })
    a.send(askFrame('a2'))
    await until(() => desktop!.companion.pending().length === 3, 'third ask')
    // a report from a foreign frame is refused and changes nothing
    fake.ipcMain.emit(IPC_CHANNELS.shown, ipcEvent(win().webContents, null), { askId: null })
    b.send(askFrame('b2'))
    await until(() => FakeNotification.instances.length === 3, 'second notification for the other agent')
    expect(FakeNotification.instances.map((n) => n.options['title'])).toEqual(['Claude Code', 'Codex', 'Codex'])
  })

  it('never steals focus: a focused window is not re-focused', async () => {
    await start()
    win().show()
    win().focus()
    win().calls = []
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => tray().title === '1', 'ask arrived')
    expect(win().calls).toEqual([])
  })
})

describe('quit', () => {
  it('with asks pending asks for confirmation; Cancel keeps the companion running', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => tray().title === '1', 'ask arrived')
    fake.dialog.response = 1
    menu().click('quit')
    await until(() => fake.dialog.boxes.length === 1, 'confirmation dialog')
    expect(fake.dialog.boxes[0]).toMatchObject({
      type: 'question',
      message: '1 question is still waiting for you.',
      buttons: ['Quit', 'Cancel'],
      cancelId: 1,
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(fake.app.quitted).toBe(false)
    expect(desktop!.companion.pending()).toHaveLength(1)
  })

  it('asks without a parent window while the window is hidden in the tray (a sheet on it would never show)', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('h1'))
    await until(() => tray().title === '1', 'ask arrived')
    win().hide()
    fake.dialog.response = 1
    fake.dialog.showMessageBox.mockClear()
    menu().click('quit')
    await until(() => fake.dialog.boxes.length === 1, 'confirmation dialog')
    expect(fake.dialog.showMessageBox.mock.calls[0]).toHaveLength(1)
  })

  it('stops the core gracefully: agents get close 1001, then the app quits', async () => {
    await start()
    const a = await agent()
    a.send(askFrame('w1'))
    await until(() => tray().title === '1', 'ask arrived')
    fake.dialog.response = 0
    fake.app.quit()
    expect((await a.closed).code).toBe(1001)
    await until(() => fake.app.quitted, 'app quit')
    expect(tray().destroyed).toBe(true)
    // the window really closes now
    expect(win().close()).toBe(false)
  })

  it('without pending asks quits without asking', async () => {
    await start()
    const a = await agent()
    fake.app.quit()
    expect((await a.closed).code).toBe(1001)
    await until(() => fake.app.quitted, 'app quit')
    expect(fake.dialog.boxes).toEqual([])
  })
})
