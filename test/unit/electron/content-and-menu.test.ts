// Pure pieces: where the page comes from, which URLs are ours, the CSP, the tray menu, strings.
import { describe, expect, it, vi } from 'vitest'
import { isAppUrl, rendererSource } from '../../../electron/main/content'
import { contentSecurityPolicy } from '../../../electron/main/security'
import { pageCsp } from '../../../shared/csp'
import { claimSingleInstance } from '../../../electron/main/single-instance'
import { stringsFor } from '../../../electron/main/strings'
import { MENU_ASK_LIMIT, trayMenuTemplate } from '../../../electron/main/tray-menu'
import { asElectron, FakeApp } from './fake-electron'
import { makeAsk } from './helpers'

describe('renderer source', () => {
  it('loads the built file, or a loopback dev server only when unpackaged', () => {
    const file = { kind: 'file', path: '/app/out/renderer/index.html' }
    expect(rendererSource('/app/out/main', false, {})).toEqual(file)
    expect(rendererSource('/app/out/main', false, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toEqual({
      kind: 'dev',
      url: 'http://localhost:5173',
    })
    expect(rendererSource('/app/out/main', true, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toEqual(file)
    expect(rendererSource('/app/out/main', false, { ELECTRON_RENDERER_URL: 'https://evil.example/' })).toEqual(file)
    expect(
      rendererSource('/app/out/main', false, { ELECTRON_RENDERER_URL: 'http://localhost.evil.example:5173' }),
    ).toEqual(file)
  })

  it('recognizes only our page as an IPC sender', () => {
    const file = rendererSource('/app/out/main', true, {})
    expect(isAppUrl(file, 'file:///app/out/renderer/index.html')).toBe(true)
    expect(isAppUrl(file, 'file:///app/out/renderer/index.html#ask=1')).toBe(true)
    expect(isAppUrl(file, 'file:///app/out/renderer/other.html')).toBe(false)
    expect(isAppUrl(file, 'file:///tmp/index.html')).toBe(false)
    expect(isAppUrl(file, 'not a url')).toBe(false)
    const dev = rendererSource('/app/out/main', false, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })
    expect(isAppUrl(dev, 'http://localhost:5173/')).toBe(true)
    expect(isAppUrl(dev, 'http://localhost:5174/')).toBe(false)
  })

  it('has a strict CSP that allows the dev server socket only in dev', () => {
    const built = contentSecurityPolicy({ kind: 'file', path: '/x' })
    expect(built).toBe(
      "default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; " +
        "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
        "require-trusted-types-for 'script'; trusted-types svelte-trusted-html",
    )
    expect(built).toBe(pageCsp('electron', 'header'))
    expect(built).not.toContain('ws:')
    expect(contentSecurityPolicy({ kind: 'dev', url: 'http://localhost:5173' })).toContain(
      "connect-src 'self' ws://localhost:5173;",
    )
  })
})

describe('single instance', () => {
  it('the first instance shows its window when launched again; the second exits 0', () => {
    const first = new FakeApp()
    const onSecond = vi.fn()
    expect(claimSingleInstance(asElectron(first, 'App'), onSecond)).toBe(true)
    first.emit('second-instance')
    expect(onSecond).toHaveBeenCalledTimes(1)
    const second = new FakeApp()
    second.gotLock = false
    expect(claimSingleInstance(asElectron(second, 'App'), onSecond)).toBe(false)
    expect(second.exitCode).toBe(0)
  })
})

describe('tray menu', () => {
  const actions = { openAsk: vi.fn(), open: vi.fn(), setDoNotDisturb: vi.fn(), setStartAtLogin: vi.fn(), quit: vi.fn() }

  it(`lists at most ${MENU_ASK_LIMIT} asks, then Open, Do not disturb, Start at login, Quit`, () => {
    const pending = Array.from({ length: 20 }, (_, i) => makeAsk(`agent ${i}`))
    const template = trayMenuTemplate(
      { pending, doNotDisturb: true, startAtLogin: false },
      stringsFor('en', 'en'),
      actions,
      'darwin',
    )
    expect(template).toHaveLength(MENU_ASK_LIMIT + 6)
    expect(template.slice(MENU_ASK_LIMIT).map((i) => [i.label ?? i.type, i.checked])).toEqual([
      ['separator', undefined],
      ['Open', undefined],
      ['Do not disturb', true],
      ['Start at login', false],
      ['separator', undefined],
      ['Quit', undefined],
    ])
    template[0]!.click!({} as never, undefined, {} as never)
    expect(actions.openAsk).toHaveBeenCalledWith(pending[0]!.askId)
  })

  it('offers Install Command Line Tool… only with an action for it (the packaged app)', () => {
    const install = vi.fn()
    const template = trayMenuTemplate(
      { pending: [], doNotDisturb: false, startAtLogin: false },
      stringsFor('zh', 'en'),
      { ...actions, installCommandLine: install },
      'win32',
    )
    const item = template.find((i) => i.id === 'install-command-line')!
    expect(item.label).toBe('安装命令行工具…')
    item.click!({} as never, undefined, {} as never)
    expect(install).toHaveBeenCalledOnce()
  })

  it('offers Check for Updates… only with an action for it, before Quit', () => {
    const check = vi.fn()
    const template = trayMenuTemplate(
      { pending: [], doNotDisturb: false, startAtLogin: false },
      stringsFor('en', 'en'),
      { ...actions, checkForUpdates: check },
      'linux',
    )
    expect(template.map((i) => i.label ?? i.type).slice(-3)).toEqual(['Check for Updates…', 'separator', 'Quit'])
    template.find((i) => i.id === 'check-for-updates')!.click!({} as never, undefined, {} as never)
    expect(check).toHaveBeenCalledOnce()
    expect(
      trayMenuTemplate(
        { pending: [], doNotDisturb: false, startAtLogin: false },
        stringsFor('en', 'en'),
        actions,
        'linux',
      ).some((i) => i.id === 'check-for-updates'),
    ).toBe(false)
  })

  it('speaks Chinese for a zh locale', () => {
    const template = trayMenuTemplate(
      { pending: [], doNotDisturb: false, startAtLogin: false },
      stringsFor('system', 'zh-CN'),
      actions,
      'linux',
    )
    expect(template.map((i) => i.label).filter(Boolean)).toEqual([
      '没有等待中的问题',
      '打开',
      '勿扰模式',
      '登录时启动',
      '退出',
    ])
  })
})
