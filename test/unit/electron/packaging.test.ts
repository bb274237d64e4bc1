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
})
