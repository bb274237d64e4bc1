// The question window on its own (strict fake BrowserWindow, fake timers for the state saves).
import { beforeEach, describe, expect, it } from 'vitest'
import { createQuestionWindow } from '../../../electron/main/window'
import type { WindowState } from '../../../electron/main/window-state'
import { asElectron, FakeBrowserWindow, fakeEvent, playPlatform, resetFakeElectron } from './fake-electron'

beforeEach(() => {
  resetFakeElectron()
  playPlatform('linux')
})

function open(state: WindowState, startHidden: boolean) {
  const window = createQuestionWindow({
    BrowserWindow: asElectron(FakeBrowserWindow, 'typeof BrowserWindow'),
    source: { kind: 'file', path: '/app/out/renderer/index.html' },
    preload: '/app/out/preload/index.js',
    state,
    saveState: () => undefined,
    startHidden,
    setTimeout: () => 0,
    clearTimeout: () => undefined,
  })
  const raw = FakeBrowserWindow.instances.at(-1)!
  return { window, raw }
}

describe('question window', () => {
  it('a maximized window launched at login stays hidden until it is first shown (maximize() would show it)', () => {
    const { window, raw } = open({ width: 800, height: 600, maximized: true }, true)
    raw.emit('ready-to-show', fakeEvent())
    expect([raw.visible, raw.maximized]).toEqual([false, false])
    window.show()
    expect([raw.visible, raw.maximized, raw.focused]).toEqual([true, true, true])
    window.show()
    expect(raw.calls.filter((call) => call === 'maximize')).toHaveLength(1)
  })

  it('a maximized window shown at start is maximized as it appears', () => {
    const { raw } = open({ width: 800, height: 600, maximized: true }, false)
    expect(raw.visible).toBe(false)
    raw.emit('ready-to-show', fakeEvent())
    expect([raw.visible, raw.maximized]).toEqual([true, true])
    expect(raw.calls).toEqual(['maximize', 'show'])
  })
})
