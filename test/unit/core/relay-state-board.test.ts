// The relay state's own rules, with a real registry and an injected clock: nothing before a relay is
// configured, one announcement per turn however many changes, `unreachable since` kept from the first
// loss, an older roster ignored, and the 7-day warning.
import { describe, expect, it } from 'vitest'
import { RelayStateBoard } from '../../../core/relay-bridge/relay-state'
import { Registry } from '../../../core/registry'
import type { RelayState } from '../../../shared/relay-state'

const DAY = 24 * 3_600_000
const member = (id: string, role: 'desktop' | 'device' | 'agent') => ({ id, name: id, role, suite: 'x25519-ed25519' })

function board(start = 1_000_000) {
  let now = start
  const registry = new Registry(
    () => now,
    () => undefined,
    10_000,
  )
  const relay = new RelayStateBoard(
    registry,
    () => now,
    () => undefined,
  )
  const seen: RelayState[] = []
  relay.onChange((state) => seen.push(state))
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
  return { relay, seen, turn, tick: (ms: number) => (now += ms) }
}

describe('the relay state board', () => {
  it('says nothing until a relay is configured', async () => {
    const { relay, seen, turn } = board()
    relay.connected()
    relay.desk({ id: 'me', name: 'me', role: 'desktop' })
    await turn()
    expect(relay.current()).toBeUndefined()
    expect(seen).toEqual([])
  })

  it("carries the desktop window's settings: the agents allowed passwords, and mirroring on the first desktop only", async () => {
    const { relay, seen, turn } = board()
    relay.configured()
    relay.desk({ id: 'me', name: 'me', role: 'desktop' })
    relay.roster({
      version: 2,
      expiresAt: 1_000_000 + 60 * DAY,
      members: [member('me', 'desktop'), member('ci', 'agent'), member('sandbox', 'agent')],
    })
    await turn()
    // Not read yet: no mirror field, no agent allowed.
    expect(seen.at(-1)).not.toHaveProperty('mirrorLocalAsks')
    expect(seen.at(-1)!.agents).toEqual([{ name: 'ci' }, { name: 'sandbox' }])
    relay.mirrorLocalAsks(true)
    relay.passwordsAllowed(['sandbox'])
    await turn()
    expect(seen.at(-1)).toMatchObject({
      mirrorLocalAsks: true,
      agents: [{ name: 'ci' }, { name: 'sandbox', passwordsAllowed: true }],
    })
    expect(seen.at(-1)!.agents[0]).not.toHaveProperty('passwordsAllowed')
    // A paired device never mirrors: the field is absent there, whatever the (absent) file read as.
    relay.desk({ id: 'laptop', name: 'laptop', role: 'device' })
    await turn()
    expect(seen.at(-1)).not.toHaveProperty('mirrorLocalAsks')
  })

  it('announces once per turn, with every change of that turn', async () => {
    const { relay, seen, turn } = board()
    relay.configured()
    relay.desk({ id: 'me', name: 'me', role: 'desktop' })
    relay.roster({
      version: 2,
      expiresAt: 1_000_000 + 60 * DAY,
      members: [member('me', 'desktop'), member('ci', 'agent')],
    })
    relay.contact('ci')
    relay.connected()
    await turn()
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      link: { state: 'connected', since: 1_000_000 },
      desk: { name: 'me', role: 'desktop' },
      devices: [{ name: 'me', self: true }],
      agents: [{ name: 'ci', lastContactAt: 1_000_000 }],
      roster: { version: 2, expiresSoon: false },
    })
  })

  it('keeps unreachable since the first loss, ignores an older roster, warns under 7 days', async () => {
    const { relay, seen, turn, tick } = board()
    relay.configured()
    relay.roster({ version: 3, expiresAt: 1_000_000 + 8 * DAY, members: [member('me', 'desktop')] })
    relay.unreachable()
    await turn()
    tick(5_000)
    relay.unreachable()
    relay.roster({ version: 2, expiresAt: 1_000_000 + 60 * DAY, members: [] })
    await turn()
    expect(relay.current()!.link).toEqual({ state: 'unreachable', since: 1_000_000 })
    expect(relay.current()!.roster).toEqual({ version: 3, expiresAt: 1_000_000 + 8 * DAY, expiresSoon: false })
    tick(DAY)
    expect(relay.current()!.roster!.expiresSoon).toBe(true)
    relay.stopped('the credential was refused')
    await turn()
    expect(seen.at(-1)!.link).toEqual({ state: 'stopped', reason: 'the credential was refused' })
  })

  it('gives each agent its recorded credential expiry, with the warning under 24 hours or past', async () => {
    const { relay, turn, tick } = board()
    relay.configured()
    relay.roster({
      version: 3,
      expiresAt: 1_000_000 + 60 * DAY,
      members: [member('ci', 'agent'), member('old', 'agent')],
    })
    relay.agentCredentials(new Map([['ci', 1_000_000 + 2 * DAY]]))
    await turn()
    expect(relay.current()!.agents).toEqual([
      { name: 'ci', credentialExpiresAt: 1_000_000 + 2 * DAY, credentialExpiresSoon: false },
      // An agent added before expiries were recorded shows none.
      { name: 'old' },
    ])
    tick(DAY + 1)
    expect(relay.current()!.agents[0]!.credentialExpiresSoon).toBe(true)
    tick(2 * DAY)
    expect(relay.current()!.agents[0]!.credentialExpiresSoon).toBe(true)
  })
})
