// "Connect an agent": the panel lists every harness with this machine's lines, each with a copy button.
import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { HARNESSES } from '../../integrations/index'
import type { ConnectInfo } from '../../shared/connect'
import { renderInbox } from './setup'

const info: ConnectInfo = {
  commandLine: { command: '/opt/Ask User Companion/resources/bin/ask-user', args: [] },
  env: { ASK_USER_HOME: '/home/ann/.config/ask-user-companion' },
  platform: 'linux',
}

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  cleanup()
  i18n.lang = 'en'
  vi.restoreAllMocks()
})

describe('Connect an agent', () => {
  it('shows each harness with lines for this machine, and copies one', async () => {
    const { bridge, user } = await renderInbox([]) // user-event puts a clipboard stand-in on navigator
    await bridge.emit({ type: 'snapshot', pending: [], connect: info })
    await user.click(screen.getByRole('button', { name: 'Connect an agent' }))

    const sections = screen.getAllByTestId('harness')
    expect(sections.map((s) => s.dataset['harness'])).toEqual([
      'claude-code',
      'codex',
      'gemini',
      'qwen',
      'opencode',
      'copilot',
      'cursor',
      'shell',
      'askpass',
    ])
    const claude = within(sections[0]!)
    expect(claude.getByRole('heading', { name: 'Claude Code' })).toBeTruthy()
    const [command] = claude.getAllByTestId('connect-block')
    expect(command!.textContent).toBe(
      "ASK_USER_HOME=/home/ann/.config/ask-user-companion '/opt/Ask User Companion/resources/bin/ask-user' setup claude-code",
    )
    expect(claude.getByText('In ~/.claude/settings.json')).toBeTruthy()

    await user.click(claude.getAllByRole('button', { name: 'Copy Claude Code' })[0]!)
    expect(await navigator.clipboard.readText()).toBe(command!.textContent)
    expect(claude.getAllByTestId('copy')[0]!.textContent?.trim()).toBe('Copied')
  })

  it('gives each agent one line to run, the --hooks line where it has hooks, and the by-hand steps collapsed', async () => {
    const { bridge, user } = await renderInbox([])
    await bridge.emit({ type: 'snapshot', pending: [], connect: info })
    await user.click(screen.getByRole('button', { name: 'Connect an agent' }))

    for (const harness of HARNESSES) {
      const section = screen.getAllByTestId('harness').find((s) => s.dataset['harness'] === harness.id)!
      const entry = within(section)
      expect(within(entry.getByTestId('connect-primary')).getByTestId('connect-block').textContent).toMatch(
        new RegExp(` setup ${harness.id}$`),
      )
      const hooks = entry.queryByTestId('connect-hooks')
      if (harness.hooks === undefined) expect(hooks).toBeNull()
      else {
        expect(hooks!.textContent).toContain('Also answer permission prompts here (--hooks)')
        expect(within(hooks!).getByTestId('connect-block').textContent).toMatch(
          new RegExp(` setup ${harness.id} --hooks$`),
        )
      }
      const byHand = entry.getByTestId('connect-by-hand') as HTMLDetailsElement
      expect(byHand.tagName).toBe('DETAILS')
      expect(byHand.open).toBe(false)
      expect(within(byHand).getByText('Or apply by hand').tagName).toBe('SUMMARY')
      expect(within(byHand).getAllByTestId('connect-block').length).toBeGreaterThan(0)
    }
    expect(screen.getAllByTestId('connect-hooks').length).toBe(HARNESSES.filter((h) => h.hooks !== undefined).length)
    const shell = within(screen.getAllByTestId('harness').find((s) => s.dataset['harness'] === 'shell')!)
    expect(shell.queryByTestId('connect-by-hand')).toBeNull()
    expect(shell.queryByTestId('connect-hooks')).toBeNull()
  })

  it('starts with a jump link per agent that moves focus to its section, and keeps the URL fragment', async () => {
    const { bridge, user } = await renderInbox([])
    await bridge.emit({ type: 'snapshot', pending: [], connect: info })
    await user.click(screen.getByRole('button', { name: 'Connect an agent' }))
    const nav = within(screen.getByRole('navigation', { name: 'Agents' }))
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual([
      ...HARNESSES.map((harness) => harness.name),
      'Scripts and other tools',
      'Passwords (sudo, ssh, git)',
    ])
    const scrolled: string[] = []
    const original = Element.prototype.scrollIntoView // jsdom has none: the test records the calls
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id)
    }
    onTestFinished(() => {
      Element.prototype.scrollIntoView = original
    })
    const before = location.hash
    await user.click(nav.getByRole('link', { name: 'Cursor' }))
    expect(scrolled).toEqual(['connect-cursor'])
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Cursor' }))
    expect(location.hash).toBe(before)
    i18n.lang = 'zh'
    await Promise.resolve()
    expect(screen.getAllByText('或者手动应用').length).toBe(HARNESSES.length)
    expect(screen.getByRole('navigation', { name: '智能体' })).toBeTruthy()
    // the flag in full-width parentheses, like the rest of the Chinese UI's punctuation
    expect(screen.getAllByTestId('connect-hooks')[0]!.textContent).toContain('也在这里回答权限请求（--hooks）')
  })

  it('lists the registry’s harnesses by their one display name, then the shell and passwords', async () => {
    const { bridge, user } = await renderInbox([])
    await bridge.emit({ type: 'snapshot', pending: [], connect: info })
    await user.click(screen.getByRole('button', { name: 'Connect an agent' }))

    const sections = screen.getAllByTestId('harness')
    expect(sections.map((s) => s.dataset['harness'])).toEqual([
      ...HARNESSES.map((harness) => harness.id),
      'shell',
      'askpass',
    ])
    const headings = sections
      .slice(0, HARNESSES.length)
      .map((section) => within(section).getByRole('heading').textContent)
    expect(headings).toEqual(HARNESSES.map((harness) => harness.name))
    expect(headings).toContain('Codex')
  })

  it('says what to do when the companion does not report its command line, in Chinese too', async () => {
    const { user } = await renderInbox([])
    i18n.lang = 'zh'
    await user.click(await screen.findByRole('button', { name: '连接智能体' }))
    expect(screen.getByTestId('connect-view').textContent).toContain('这个助手没有报告它的 ask-user 命令所在位置')
    expect(screen.queryAllByTestId('harness')).toEqual([])
  })

  it('says so when copying fails, so the person can copy by hand', async () => {
    const { bridge, user } = await renderInbox([])
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied')) // and jsdom has no execCommand copy
    await bridge.emit({ type: 'snapshot', pending: [], connect: info })
    await user.click(screen.getByRole('button', { name: 'Connect an agent' }))
    const shell = within(screen.getAllByTestId('harness').find((s) => s.dataset['harness'] === 'shell')!)
    await user.click(shell.getByRole('button', { name: 'Copy Scripts and other tools' }))
    expect(shell.getByRole('status').textContent).toBe('Copy failed: select the text and copy it by hand')
  })

  it('ends with the askpass set-up lines (none on Windows)', async () => {
    const { bridge, user } = await renderInbox([])
    await bridge.emit({ type: 'snapshot', pending: [], connect: info })
    await user.click(screen.getByRole('button', { name: 'Connect an agent' }))
    const passwords = within(screen.getAllByTestId('harness').find((s) => s.dataset['harness'] === 'askpass')!)
    expect(passwords.getByRole('heading', { name: 'Passwords (sudo, ssh, git)' })).toBeTruthy()
    expect(passwords.getAllByTestId('connect-block').map((block) => block.textContent)).toEqual(
      ['claude-code', 'codex', 'shell'].map((target) =>
        expect.stringMatching(new RegExp(`setup ${target} --askpass$`)),
      ),
    )
  })
})
