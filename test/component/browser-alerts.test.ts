// The served page's alert rules (lib/browser-alerts.svelte.ts) with a recording host: nothing is asked
// on load, asks a snapshot or its rest brings are not new, nothing pops up while the person looks at
// the tab, and the sound follows its setting.
import { describe, expect, it } from 'vitest'
import { BrowserAlerts, SOUND_KEY, type AlertHost } from '../../renderer/src/lib/browser-alerts.svelte'
import { FakeBridge, makeAsk } from './fake-bridge'

function recordingHost(permission: NotificationPermission, watching = false) {
  const record = { requests: 0, shown: [] as string[], beeps: 0, last: undefined as Observed | undefined }
  class Observed {
    static permission = permission
    static requestPermission(): Promise<NotificationPermission> {
      record.requests += 1
      return Promise.resolve('granted')
    }
    onclick: (() => void) | null = null
    constructor(title: string, options?: NotificationOptions) {
      record.shown.push(`${title} | ${options?.body ?? ''}`)
      record.last = this
    }
    close(): void {}
  }
  const host: AlertHost = {
    Notification: Observed as unknown as typeof Notification,
    storage: localStorage,
    watching: () => watching,
    beep: () => void (record.beeps += 1),
  }
  return { host, record }
}

describe('browser alerts', () => {
  it('asks nothing on load; a new ask notifies, the snapshot and its rest do not', async () => {
    localStorage.clear()
    const { host, record } = recordingHost('granted')
    const bridge = new FakeBridge()
    const opened: string[] = []
    new BrowserAlerts(host).listen(bridge, (askId) => opened.push(askId))
    const old = makeAsk({ receivedAt: 1_000 })
    await bridge.emit({ type: 'snapshot', pending: [old], restUntil: 2_000 })
    await bridge.emit({ type: 'ask/added', ask: makeAsk({ receivedAt: 2_000 }) })
    expect(record).toMatchObject({ requests: 0, shown: [], beeps: 0 })
    const fresh = makeAsk({ receivedAt: 3_000, agent: { name: 'evil\u202Ename' } })
    await bridge.emit({ type: 'ask/added', ask: fresh })
    expect(record.shown).toEqual(['evil⟨U+202E⟩name | Package manager: Which package manager should I use?'])
    expect(record.beeps).toBe(0)
    record.last?.onclick?.()
    expect(opened).toEqual([fresh.askId])
  })

  it('while the person looks at the tab nothing pops up; the sound plays only when on, and is remembered', async () => {
    localStorage.clear()
    const watched = recordingHost('granted', true)
    const bridge = new FakeBridge()
    const alerts = new BrowserAlerts(watched.host)
    alerts.listen(bridge)
    alerts.setSound(true)
    expect(localStorage.getItem(SOUND_KEY)).toBe('1')
    const beepsOnToggle = watched.record.beeps
    await bridge.emit({ type: 'ask/added', ask: makeAsk() })
    expect(watched.record.shown).toEqual([])
    expect(watched.record.beeps).toBe(beepsOnToggle)

    const away = recordingHost('default')
    const later = new BrowserAlerts(away.host)
    expect(later.sound).toBe(true)
    later.listen(bridge)
    await bridge.emit({ type: 'ask/added', ask: makeAsk() })
    expect(away.record.shown).toEqual([]) // not allowed yet
    expect(away.record.beeps).toBe(1)
    await later.requestPermission()
    expect(away.record.requests).toBe(1)
    expect(later.permission).toBe('granted')
    later.setSound(false)
    expect(localStorage.getItem(SOUND_KEY)).toBeNull()
  })
})
