// The running desktop keeps the roster's push section current: a desktop home made by the real CLI
// (`relay init --loopback`, `relay add-agent`, `relay pair` + `relay join`), a real nats-server; the
// paired device writes its subscription record, and the desktop's keeper re-signs the roster with it
// sealed in, which the agent opens; a receipt's gone report takes it out again.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import { AgentRelayFileSchema } from '../../../../cli/relay/agent-file'
import { loadMemberKeys, type MemberKeys } from '../../../../relay/crypto'
import { RelayLink } from '../../../../relay/exchange'
import { nodeConnect } from '../../../../relay/exchange/node-connect'
import { openBucket } from '../../../../relay/exchange/relay-kv'
import { loadDeskIdentity } from '../../../../relay/home/desk-identity'
import { followPushSubscriptions } from '../../../../relay/home/push-keeper'
import { DEVICE_FILES, DeviceCredsSchema, loadOwnMember } from '../../../../relay/home/state'
import { loadStoredRoster } from '../../../../relay/home/stored-roster'
import { BUCKETS } from '../../../../relay/nats/templates'
import { endpointHash } from '../../../../relay/push/notifier'
import { openPushSection } from '../../../../relay/push/section'
import { sealSubscription, subscriptionKey } from '../../../../relay/push/subscription'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { WAIT_MS } from '../../../helpers/waits'
import { memoryIo } from '../../cli/memory-io'
import { pipeIo } from '../../cli/relay/pipe-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the push keeper test: ${skip}`)

const SUBSCRIPTION = {
  endpoint: 'https://push.example/send/laptop',
  keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 4).toString('base64url') },
}

describe.skipIf(skip)('the desktop follows phones’ push subscriptions', () => {
  let root: string
  let home: string
  let deviceHome: string
  let server: RunningNatsServer
  let url: string
  const links: RelayLink[] = []
  const stop = new AbortController()

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'push-keeper-'))
    home = join(root, 'desk-home')
    deviceHome = join(root, 'laptop-home')
    const port = await freePort()
    url = `nats://127.0.0.1:${port}`
    const io = memoryIo({ ASK_USER_HOME: home })
    const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://inbox.example']
    const ports = ['--loopback', '--client-port', String(port), '--ws-port', String(await freePort()), '--url', url]
    expect(await main([...init, ...ports], io)).toBe(0)
    server = await startNatsServer(/start: nats-server -c (\S+)/.exec(io.out())![1]!)
    const addAgent = ['relay', 'add-agent', 'builder', '--out', join(root, 'builder.json')]
    expect(await main(addAgent, memoryIo({ ASK_USER_HOME: home }))).toBe(0)
    const desk = pipeIo({ ASK_USER_HOME: home })
    const laptop = pipeIo({ ASK_USER_HOME: deviceHome })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m))[1]!
    const joining = main(['relay', 'join', '--name', 'laptop'], laptop)
    laptop.stdin.write(`${line}\n`)
    await desk.waitForOut(/Confirmation code: (\d{6})/)
    desk.stdin.write('yes\n')
    expect(await pairing).toBe(0)
    expect(await joining).toBe(0)
  }, 60_000)
  afterAll(async () => {
    stop.abort()
    for (const link of links) await link.close().catch(() => undefined)
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  const open = async (creds: string, name: string): Promise<RelayLink> => {
    const link = await RelayLink.open({
      connect: nodeConnect,
      url,
      creds,
      name,
      allowOutdatedLoopback: true,
      reachTimeoutMs: 10_000,
    })
    links.push(link)
    return link
  }
  /** The subscriptions the agent reads from the roster the desktop stored (and published), once `check` holds. */
  const agentSees = async (agent: MemberKeys, check: (endpoints: string[]) => boolean): Promise<string[]> => {
    let endpoints: string[] = []
    await expect
      .poll(
        async () => {
          const section = await openPushSection(agent, await loadStoredRoster(home)).catch(() => undefined)
          endpoints = section?.subscriptions.map((entry) => entry.subscription.endpoint) ?? []
          return check(endpoints)
        },
        { timeout: WAIT_MS },
      )
      .toBe(true)
    return endpoints
  }

  it('a subscription written by the device is sealed in at once; a gone report takes it out', async () => {
    const agentFile = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'builder.json'), 'utf8')))
    const agent = await loadMemberKeys(agentFile.agent)
    const identity = await loadDeskIdentity(home, 'desktop', Date.now)
    const warnings: string[] = []
    const keeper = followPushSubscriptions(home, await open(identity.creds, identity.natsName), {
      signal: stop.signal,
      warn: (message) => warnings.push(message),
      now: Date.now,
    })

    const creds = DeviceCredsSchema.parse(
      JSON.parse(await readFile(join(deviceHome, DEVICE_FILES.deviceCreds), 'utf8')),
    )
    const laptop = await loadMemberKeys(await loadOwnMember(deviceHome, 'device'))
    const kv = await openBucket((await open(creds.creds, creds.natsName)).nc, BUCKETS.roster)
    const record = await sealSubscription(laptop, await loadStoredRoster(home), SUBSCRIPTION, Date.now())
    await kv.put(subscriptionKey(laptop.member.id), record)
    expect(await agentSees(agent, (endpoints) => endpoints.length === 1)).toEqual([SUBSCRIPTION.endpoint])

    keeper.reportGone([{ device: laptop.member.id, endpoint: await endpointHash(SUBSCRIPTION.endpoint) }])
    expect(await agentSees(agent, (endpoints) => endpoints.length === 0)).toEqual([])
    await keeper.idle()
    expect(warnings).toEqual([])
  })
  it('an agent added later can open the section at once (re-sealed to the new members)', async () => {
    const out = join(root, 'second.json')
    expect(await main(['relay', 'add-agent', 'second', '--out', out], memoryIo({ ASK_USER_HOME: home }))).toBe(0)
    const second = await loadMemberKeys(AgentRelayFileSchema.parse(JSON.parse(await readFile(out, 'utf8'))).agent)
    const roster = await loadStoredRoster(home)
    expect(roster.members.map((member) => member.name)).toContain('second')
    // 65 bytes of P-256 point, base64url.
    expect(roster.push?.vapidPublic).toMatch(/^[A-Za-z0-9_-]{87}$/)
    const section = await openPushSection(second, roster)
    expect(section?.vapid.publicKey).toBe(roster.push!.vapidPublic)
  })
})
