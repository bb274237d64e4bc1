// What notifications, the tray menu and the inbox list say about an approval: one plain line.
import { describe, expect, it } from 'vitest'
import { askNotificationText } from '../../../electron/main/notification-text'
import { askMenuLabel } from '../../../electron/main/tray-menu'
import { askSummary } from '../../../renderer/src/lib/group-asks'
import type { Ask } from '../../../shared/ask'

const approval = (command: string): Ask => ({
  kind: 'approval',
  askId: 'k',
  agent: { name: 'Claude Code' },
  approval: { tool: 'Bash', action: { kind: 'command', command } },
  receivedAt: 0,
})

describe('approval text', () => {
  it('says who wants to run what, on one line', () => {
    expect(askNotificationText(approval('npm test'))).toEqual({
      title: 'Claude Code',
      body: 'Claude Code wants to run: npm test',
    })
    expect(askMenuLabel(approval('npm\n  test'))).toBe('Claude Code wants to run: npm test')
    expect(askSummary(approval('npm test'))).toBe('run: npm test')
  })
  it('cuts a long command at a word boundary and marks hidden characters', () => {
    const label = askMenuLabel(approval(`rm -rf ${'build '.repeat(30)}`))
    expect(label.length).toBeLessThanOrEqual(60)
    expect(label.endsWith('build…')).toBe(true)
    expect(askNotificationText(approval('echo \u202Eevil')).body).toContain('U+202E')
  })
})
