// Settings and window state files: a corrupt file falls back to defaults with a warning, never a crash.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSettings, saveSettings } from '../../../core'
import { DEFAULT_SETTINGS } from '../../../shared'
import { openSettingsStore } from '../../../electron/main/settings-store'
import { DEFAULT_WINDOW_STATE, loadWindowState, saveWindowState } from '../../../electron/main/window-state'
import { tempHome } from './helpers'

let home: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  home = await tempHome()
})
afterEach(() => home.cleanup())

const persistence = () => ({
  load: () => loadSettings(home.home),
  save: (s: typeof DEFAULT_SETTINGS) => saveSettings(home.home, s),
})

describe('settings store', () => {
  it('falls back to the defaults with a warning when settings.json is corrupt', async () => {
    await writeFile(join(home.home, 'settings.json'), '{ not json')
    const warnings: string[] = []
    const store = await openSettingsStore(persistence(), (w) => void warnings.push(w))
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
    expect(warnings).toHaveLength(1)
  })

  it('falls back to the defaults when loading throws', async () => {
    const warnings: string[] = []
    const store = await openSettingsStore(
      { load: () => Promise.reject(new Error('EACCES')), save: async () => undefined },
      (w) => void warnings.push(w),
    )
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
    expect(warnings).toEqual(['settings could not be read, using the defaults: EACCES'])
  })

  it('applies, announces and saves each change in order; rejects an invalid one', async () => {
    const store = await openSettingsStore(persistence(), () => undefined)
    const seen: boolean[] = []
    store.onChange((next) => void seen.push(next.doNotDisturb))
    await Promise.all([
      store.update({ doNotDisturb: true }),
      store.update({ theme: 'dark' }),
      store.update({ language: 'zh' }),
    ])
    expect(seen).toEqual([true, true, true])
    const saved = JSON.parse(await readFile(join(home.home, 'settings.json'), 'utf8'))
    expect([saved.doNotDisturb, saved.theme, saved.language]).toEqual([true, 'dark', 'zh'])
    await expect(store.update({ port: -1 })).rejects.toThrow()
    expect(store.get().port).toBe(0)
  })
})

describe('window state', () => {
  it('round-trips, and a corrupt, invalid or off-screen state gives the default placement', async () => {
    expect(await loadWindowState(home.home)).toEqual(DEFAULT_WINDOW_STATE)
    await saveWindowState(home.home, { x: 10, y: 20, width: 800, height: 600, maximized: true })
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }]
    expect(await loadWindowState(home.home, screen)).toEqual({ x: 10, y: 20, width: 800, height: 600, maximized: true })
    await saveWindowState(home.home, { x: 5000, y: 20, width: 800, height: 600, maximized: false })
    expect(await loadWindowState(home.home, screen)).toEqual({ width: 800, height: 600, maximized: false })
    await writeFile(join(home.home, 'window-state.json'), '{"width": 5}')
    expect(await loadWindowState(home.home)).toEqual(DEFAULT_WINDOW_STATE)
    await mkdir(join(home.home, 'x'))
    await writeFile(join(home.home, 'window-state.json'), 'garbage')
    expect(await loadWindowState(home.home)).toEqual(DEFAULT_WINDOW_STATE)
  })
})
