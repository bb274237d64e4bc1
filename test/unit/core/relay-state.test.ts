// The relay state a window's "Relay" view shows (`relay/state`, shared/relay-state.ts), from a real companion
// against a real nats-server set up as a person would (`relay init`, `relay add-agent`, `relay pair` + `relay
// join`): this desk, the paired device and the agent; the agent's last contact and the remote asks pending;
// a device removed while the companion runs; the relay killed. v1 windows and companions without a relay
// never get the frame, and no credential or key is ever in it.
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { AgentRelayFileSchema } from '../../../cli/relay/agent-file'
import { openRemoteAsker, type RelayLink } from '../../../relay/exchange'
import { loadDeviceCreds, loadOwnMember } from '../../../relay/home/state'
import type { RelayState } from '../../../shared/relay-state'
import type { UiServerFrame } from '../../../shared/ui'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { natsServerSkipReason, type RunningNatsServer } from '../../helpers/nats-server'
import { connectUi } from '../../helpers/ui-client'
import { openV2Window, type V2Window } from '../../helpers/ui-v2-window'
import { memoryIo } from '../cli/memory-io'
import { setUpRelayDesks, type RelayDesks } from './relay-desks'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the relay state tests: ${skip}`)

const WAIT = 20_000
type StateFrame = Extract<UiServerFrame, { type: 'relay/state' }>

describe.skipIf(skip)('the relay state in the windows (real nats-server, a real companion)', () => {
  let root: string
  let homeA: string
  let homeB: string
  let desks: RelayDesks
  let server: RunningNatsServer
  let desk: TestCompanion
  let window: V2Window
  let deskName: string
  const links: RelayLink[] = []

  /** The next `relay/state` frame that satisfies `check`. */
  const state = (target: V2Window, check: (state: RelayState) => boolean): Promise<RelayState> =>
    target.frames.next<StateFrame>((f) => f.type === 'relay/state' && check(f.state), WAIT).then((f) => f.state)

  beforeAll(async () => {
    desks = await setUpRelayDesks('relay-state-', ['ci-job'])
    ;({ root, homeA, homeB, server } = desks)
    deskName = (await loadOwnMember(homeA, 'desktop')).member.name
    desk = await startTestCompanion({ home: homeA })
    await desk.companion.relayReady
    window = await openV2Window(desk.companion)
  }, 90_000)

  afterAll(async () => {
    await window?.close()
    for (const link of links) await link.close().catch(() => undefined)
    await desk?.cleanup()
    await desks?.close()
  })

  it('a window is sent this desk, the paired device, the agent and the roster, with no secret in the frame', async () => {
    const shown = await state(window, (s) => s.link.state === 'connected' && s.devices.length === 2)
    expect(shown).toMatchObject({
      configured: true,
      link: { state: 'connected', since: expect.any(Number) },
      desk: { name: deskName, role: 'desktop' },
      roster: { expiresSoon: false },
      agents: [{ name: 'ci-job' }],
      pendingRemote: 0,
    })
    expect(shown.agents[0]!.lastContactAt).toBeUndefined()
    // add-agent's default 12 h credential, as recorded by the first desktop: under a day, so the warning look.
    const agentFile = JSON.parse(await readFile(join(root, 'ci-job.json'), 'utf8')) as { credsExpiresAt: number }
    expect(shown.agents[0]!.credentialExpiresAt).toBe(agentFile.credsExpiresAt * 1000)
    expect(shown.agents[0]!.credentialExpiresSoon).toBe(true)
    expect(shown.devices).toEqual([
      // init does not record when the first desktop joined; pairing records the device's.
      { name: deskName, role: 'desktop', suite: 'x25519-ed25519', self: true },
      { name: 'laptop-b', role: 'device', suite: 'x25519-ed25519', pairedAt: expect.any(Number) },
    ])
    expect(shown.roster!.version).toBeGreaterThanOrEqual(3)
    expect(shown.roster!.expiresAt).toBeGreaterThan(Date.now() + 50 * 24 * 3_600_000)
    // Nothing secret: not the desk's keys, not the device's credential, no key or credential field.
    const json = JSON.stringify(shown)
    const own = await loadOwnMember(homeA, 'desktop')
    const deviceCreds = await loadDeviceCreds(homeB)
    for (const secret of [own.hpkePrivate, own.signSeed, own.member.hpkePublic, deviceCreds.creds])
      expect(json).not.toContain(secret)
    expect(json).not.toMatch(/SU[A-Z0-9]{20,}|BEGIN|seed|creds|hpke/i)
  })

  it("an agent's question and its receipt: last contact and the count of remote asks pending follow", async () => {
    const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'ci-job.json'), 'utf8')))
    const { asker, link } = await openRemoteAsker(file, { allowOutdatedLoopback: true, reconnectWaitMs: 100 })
    links.push(link)
    const before = Date.now()
    const pending = state(window, (s) => s.pendingRemote === 1)
    const stop = new AbortController()
    const asked = asker.ask([{ id: 'q', question: 'Ship it?' }], { title: 'Contact', signal: stop.signal })
    const withOne = await pending
    const contact = withOne.agents.find((agent) => agent.name === 'ci-job')!.lastContactAt!
    expect(contact).toBeGreaterThanOrEqual(before)
    // Frames already received count for the queue: one sent before the stored roster was read (no agents
    // yet, nothing pending) must not pass for the cleared count, so the wait names the agent it expects.
    const cleared = state(
      window,
      (s) => s.pendingRemote === 0 && s.agents.some((agent) => agent.name === 'ci-job' && agent.lastContactAt),
    )
    stop.abort()
    await asked.catch(() => undefined)
    const after = await cleared
    expect(after.agents.find((agent) => agent.name === 'ci-job')!.lastContactAt).toBeGreaterThanOrEqual(contact)
  }, 60_000)

  it('v1 windows never get the frame; a companion without a relay sends none', async () => {
    const v1 = await connectUi(desk.companion)
    const plain = await startTestCompanion()
    const bare = await openV2Window(plain.companion)
    try {
      // Each window's history reply comes after everything the companion sent it on connect.
      v1.send({ type: 'history/get' } as object)
      await v1.nextFrame((f) => (f.type as string) === 'history')
      bare.send({ type: 'history/get' })
      await bare.frames.next((f) => f.type === 'history')
      expect(v1.frames.map((f) => f.type as string)).not.toContain('relay/state')
      expect(bare.frames.frames.map((f) => f.type)).not.toContain('relay/state')
    } finally {
      await v1.close()
      await bare.close()
      await plain.cleanup()
    }
  }, 30_000)

  it('a device removed while the companion runs leaves the view', async () => {
    const gone = state(window, (s) => s.devices.length === 1)
    expect(await main(['relay', 'remove', 'laptop-b'], memoryIo({ ASK_USER_HOME: homeA }))).toBe(0)
    expect((await gone).devices).toEqual([expect.objectContaining({ name: deskName, self: true })])
  }, 30_000)

  it('relay killed: the state says unreachable since then', async () => {
    const before = Date.now()
    const unreachable = state(window, (s) => s.link.state === 'unreachable')
    const exited = once(server.process, 'exit')
    server.process.kill('SIGKILL')
    await exited
    const link = (await unreachable).link
    expect(link).toEqual({ state: 'unreachable', since: expect.any(Number) })
    expect(link.state === 'unreachable' && link.since).toBeGreaterThanOrEqual(before)
  }, 30_000)
})
