// Packaging facts the desktop code relies on (package.json, electron-builder.yml).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')
const text = (file: string): string => readFileSync(join(root, file), 'utf8')

describe('packaging', () => {
  it('names the Linux .desktop file after desktopName, which app.setBadgeCount needs to match', () => {
    const { desktopName } = JSON.parse(text('package.json')) as { desktopName?: string }
    const builder = text('electron-builder.yml')
    expect(desktopName).toBe(`${/^ {2}executableName: (\S+)$/m.exec(builder)?.[1]}.desktop`)
    expect(builder).toMatch(/^ {2}syncDesktopName: true$/m)
  })

  it('gives the Windows shortcuts the AppUserModelId the app sets (toasts are matched to it)', () => {
    // electron-builder's NSIS installer stamps appId on the shortcuts; desktop.ts sets the same id
    // (checked by the Windows desktop test).
    expect(/^appId: (\S+)$/m.exec(text('electron-builder.yml'))?.[1]).toBe('dev.askuser.companion')
  })
})
