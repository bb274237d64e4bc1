import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSettings, saveSettings } from '../../../core'
import { mergeSettings } from '../../../core/settings-store'
import { DEFAULT_SETTINGS } from '../../../shared/settings'
import { startTestCompanion } from '../../helpers/companion'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-settings-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

describe('settings store', () => {
  it('gives defaults without a warning when the file is missing', async () => {
    expect(await loadSettings(home)).toEqual({ settings: DEFAULT_SETTINGS })
  })
  it('gives defaults and a warning for a corrupt or invalid file, never throws', async () => {
    await writeFile(join(home, 'settings.json'), '{"port": 12')
    const corrupt = await loadSettings(home)
    expect(corrupt.settings).toEqual(DEFAULT_SETTINGS)
    expect(corrupt.warning).toMatch(/settings\.json is not valid JSON .*; using default settings$/)
    await writeFile(join(home, 'settings.json'), '{"port": "x"}')
    const invalid = await loadSettings(home)
    expect(invalid.settings).toEqual(DEFAULT_SETTINGS)
    expect(invalid.warning).toMatch(/has invalid settings \("port" must be a number\); using default settings$/)
  })
  it('saves atomically with mode 0600 and reads back', async () => {
    const settings = { ...DEFAULT_SETTINGS, theme: 'dark' as const, historyLimit: 5 }
    await saveSettings(home, settings)
    expect(await loadSettings(home)).toEqual({ settings })
    if (process.platform !== 'win32') expect((await stat(join(home, 'settings.json'))).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8'))).toEqual(settings)
  })
  it('layers overrides on top, limits key by key', () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, { port: 7, limits: { connections: 3 } as never })
    expect(merged.port).toBe(7)
    expect(merged.limits).toEqual({ ...DEFAULT_SETTINGS.limits, connections: 3 })
  })
  it('a companion starts on a corrupt settings file and reports the warning', async () => {
    await writeFile(join(home, 'settings.json'), 'garbage')
    const warnings: string[] = []
    const { companion, cleanup } = await startTestCompanion({ home, onWarning: (m) => warnings.push(m) })
    expect(companion.settings).toEqual(DEFAULT_SETTINGS)
    expect(warnings).toEqual([expect.stringContaining('using default settings')])
    await cleanup()
  })
})
