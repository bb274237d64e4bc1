// `ask-user open` against the desktop app (the real core inside the strict fake Electron): it raises the
// app's own window through `POST /v1/window/show` with the window credential, and opens no browser.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { run as open } from '../../../cli/commands/open'
import type { Companion } from '../../../core'
import type { Desktop } from '../../../electron/main/desktop'
import { WINDOW_SHOW_PATH } from '../../../shared/window-link'
import { memoryIo } from '../cli/memory-io'
import { FakeBrowserWindow, resetFakeElectron } from './fake-electron'
import { tempHome } from './helpers'
import { startLinuxDesktop } from './start-desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronMock())

let home: Awaited<ReturnType<typeof tempHome>>
let desktop: Desktop | undefined
const warnings: string[] = []

beforeEach(async () => {
  resetFakeElectron()
  home = await tempHome()
  warnings.length = 0
})

afterEach(async () => {
  await desktop?.companion.close()
  desktop = undefined
  await home.cleanup()
})

async function start(): Promise<Desktop> {
  desktop = await startLinuxDesktop(home.home, warnings)
  return desktop
}

const win = (): FakeBrowserWindow => FakeBrowserWindow.instances[0]!

describe.skipIf(process.platform === 'win32')('ask-user open with the desktop app running', () => {
  it('brings the hidden window to the front; no link, no browser, no credential printed', async () => {
    const app = await start()
    win().hide()
    expect(win().visible).toBe(false)
    const io = memoryIo({ ASK_USER_HOME: home.home, PATH: '/nonexistent' })
    expect(await open([], io)).toBe(0)
    expect(win().visible).toBe(true)
    expect(win().focused).toBe(true)
    expect(io.err()).toBe("Brought the companion's window to the front.\n")
    expect(io.out()).toBe('')
    expect(io.err() + io.out()).not.toContain((app.companion as Companion).windowCredential())
  })

  it('the route needs the window credential: the agent token is refused with 401 and the window stays hidden', async () => {
    const app = await start()
    win().hide()
    const companion = app.companion as Companion
    const refused = await fetch(new URL(WINDOW_SHOW_PATH, companion.pageUrl), {
      method: 'POST',
      headers: { Authorization: `Bearer ${companion.token}` },
    })
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { code: string }).code).toBe('NOT_A_WINDOW')
    expect(win().visible).toBe(false)
  })
})
