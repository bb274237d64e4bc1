// Test fixture: one operator-mode nats-server (Debian's 2.9.10 on 127.0.0.1) with the buckets, a root
// key, a signed roster on the relay, and real scoped credentials from relay/nats for every member.
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node'
import {
  generateMemberIdentity,
  generateRootIdentity,
  loadMemberKeys,
  loadRootKeys,
  signRoster,
  type Member,
  type MemberKeys,
  type MemberSecret,
  type Roster,
  type RosterPush,
} from '../../../../relay/crypto'
import { nodeConnect, RelayDesk, RelayLink, RemoteAsker } from '../../../../relay/exchange'
import { createBuckets } from '../../../../relay/nats/buckets'
import { mintAdminCredential, mintRoleCredential } from '../../../../relay/nats/credentials'
import { initSelfHosted, type SelfHostedInit } from '../../../../relay/nats/init'
import { inboxPrefixFor, type Role } from '../../../../relay/nats/templates'
import { encodeRosterRecord } from '../../../../relay/crypto'
import { freePort, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'

/** A member of the test relay: its keys and a credential of its role. */
export interface WorldMember {
  keys: MemberKeys
  /** The stored form of the keys, as an agent's relay file carries them. */
  secret: MemberSecret
  creds: string
  /** The credential's name: the member's name, or a desktop's member id (as `relay init` names it). */
  natsName: string
  role: Role
}

/** The running relay and its people. */
export interface RelayWorld {
  url: string
  /** The relay's WebSocket listener (no TLS, on loopback), as the phone dials it; Origin https://inbox.example. */
  wsUrl: string
  port: number
  rootPublicKey: string
  roster: Roster
  members: Map<string, WorldMember>
  /** Connects as `name` (reconnecting forever, 100 ms between attempts) to `url` (default: the server). */
  link(name: string, url?: string): Promise<RelayLink>
  /** A fresh credential of `role` for `name`, minted as if at `now` (ms), e.g. one already expired. */
  mint(role: Role, name: string, ttlSeconds: number, now?: number): Promise<string>
  /** A connection with the account's admin credential: the relay's operator, who may write any key. */
  admin(): Promise<NatsConnection>
  /**
   * Signs the same members (less those named in `without`) as roster `version` and publishes it as the
   * desktop does; with `push`, the roster carries that push section (a VAPID key added later, say).
   */
  publishRoster(version: number, without?: readonly string[], push?: WorldPush): Promise<void>
  /** SIGKILLs the server and starts it again on the same port and store. */
  killAndRestart(): Promise<void>
  close(): Promise<void>
}

/** Makes a roster's push section for its members (relay/push `sealPushSection`), given the world's keys. */
export type WorldPush = (members: Member[], keys: Map<string, WorldMember>) => Promise<RosterPush>

/**
 * Starts a relay whose roster lists `devices` and `agents`; `outsiders` get device keys and a device
 * credential but are not in the roster (a removed device).
 */
export async function startRelayWorld(people: {
  devices: string[]
  agents: string[]
  outsiders?: string[]
  /** Desktops listed in the roster (role `desktop`, with a desktop credential). */
  desktops?: string[]
  /** The roster's push section for its members (relay/push), when the test wants one. */
  push?: WorldPush
  /**
   * The WebSocket listener's allowed origin instead of https://inbox.example: a browser test's app on
   * loopback http, which the config schema (https only) would refuse, so it is written into the file.
   */
  browserOrigin?: string
}): Promise<RelayWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'relay-exchange-'))
  const port = await freePort()
  const websocketPort = await freePort()
  const init: SelfHostedInit = await initSelfHosted(join(dir, 'relay'), {
    loopbackTest: true,
    clientPort: port,
    websocketPort,
    allowedOrigins: ['https://inbox.example'],
  })
  if (people.browserOrigin !== undefined) {
    const config = await readFile(init.configPath, 'utf8')
    await writeFile(init.configPath, config.replace('"https://inbox.example"', JSON.stringify(people.browserOrigin)))
  }
  let server: RunningNatsServer = await startNatsServer(init.configPath)
  const url = `nats://127.0.0.1:${port}`
  const links: RelayLink[] = []
  const signer = (role: Role) => ({
    accountPublicKey: init.companionKeys.accountPublicKey,
    signingSeed: init.companionKeys.roleSigningSeeds[role],
  })

  const members = new Map<string, WorldMember>()
  const add = async (name: string, role: 'device' | 'agent' | 'desktop'): Promise<Member> => {
    const identity = await generateMemberIdentity(name, role)
    // A desktop's credential is named by its member id, as `relay init` names it (desk-question.ts askerToken).
    const natsName = role === 'desktop' ? identity.member.id : name
    const credential = await mintRoleCredential(signer(role), role, natsName, 600)
    members.set(name, {
      keys: await loadMemberKeys(identity.secret),
      secret: identity.secret,
      creds: credential.creds,
      natsName,
      role,
    })
    return identity.member
  }
  const listed: Member[] = []
  for (const name of people.desktops ?? []) listed.push(await add(name, 'desktop'))
  for (const name of people.devices) listed.push(await add(name, 'device'))
  for (const name of people.agents) listed.push(await add(name, 'agent'))
  for (const name of people.outsiders ?? []) await add(name, 'device')

  const root = await generateRootIdentity()
  const signed = await signRoster(await loadRootKeys(root.secret), {
    version: 1,
    members: listed,
    now: Date.now(),
    ...(people.push ? { push: await people.push(listed, members) } : {}),
  })
  const connectAdmin = async (): Promise<NatsConnection> =>
    connect({
      servers: url,
      authenticator: credsAuthenticator(new TextEncoder().encode(await mintAdminCredential(init.accountSeed, 120))),
      inboxPrefix: inboxPrefixFor('admin'),
    })
  const admin = await connectAdmin()
  await createBuckets(admin)
  await admin.close()
  const adminLinks: NatsConnection[] = []
  const publish = async (record: Uint8Array): Promise<void> => {
    const desktop = await mintRoleCredential(signer('desktop'), 'desktop', 'desk0', 120)
    const publisher = await connect({
      servers: url,
      authenticator: credsAuthenticator(new TextEncoder().encode(desktop.creds)),
      inboxPrefix: inboxPrefixFor('desk0'),
    })
    const { jetstream } = await import('@nats-io/jetstream')
    await jetstream(publisher, { checkAPI: false }).publish('$KV.roster.current', record)
    await publisher.close()
  }
  await publish(encodeRosterRecord(signed))

  return {
    url,
    wsUrl: `ws://127.0.0.1:${websocketPort}`,
    port,
    rootPublicKey: root.publicKey,
    roster: signed.roster,
    members,
    async link(name, target = url) {
      const member = members.get(name)
      if (!member) throw new Error(`no member ${name}`)
      const link = await RelayLink.open({
        url: target,
        connect: nodeConnect,
        creds: member.creds,
        name: member.natsName,
        allowOutdatedLoopback: true,
        reconnectWaitMs: 100,
        reachTimeoutMs: 10_000,
      })
      links.push(link)
      return link
    },
    async mint(role, name, ttlSeconds, now) {
      const minted = await mintRoleCredential(
        { ...signer(role), ...(now === undefined ? {} : { now: () => now }) },
        role,
        name,
        ttlSeconds,
      )
      return minted.creds
    },
    async admin() {
      const nc = await connectAdmin()
      adminLinks.push(nc)
      return nc
    },
    async publishRoster(version, without = [], push) {
      const left = new Set(without.map((name) => members.get(name)?.keys.member.id))
      const kept = listed.filter((member) => !left.has(member.id))
      const next = await signRoster(await loadRootKeys(root.secret), {
        version,
        members: kept,
        now: Date.now(),
        ...(push ? { push: await push(kept, members) } : {}),
      })
      await publish(encodeRosterRecord(next))
    },
    async killAndRestart() {
      const exited = once(server.process, 'exit')
      server.process.kill('SIGKILL')
      await exited
      server = await startNatsServer(init.configPath)
    },
    async close() {
      for (const link of links) await link.close().catch(() => undefined)
      for (const nc of adminLinks) await nc.close().catch(() => undefined)
      await server.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Resolves with the first value `subscribe` delivers that `matches`, or rejects after `ms`. */
/** Starts a desk as the world's member `name` on a link of its own, and adds it to `desks` (the caller closes them). */
export async function startWorldDesk(world: RelayWorld, name: string, desks: RelayDesk[]): Promise<RelayDesk> {
  const started = await RelayDesk.start({
    link: await world.link(name),
    device: world.members.get(name)!.keys,
    rootPublicKey: world.rootPublicKey,
  })
  desks.push(started)
  return started
}

export function nextEvent<T>(
  subscribe: (listener: (value: T) => void) => () => void,
  matches: (value: T) => boolean = () => true,
  ms = 15_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`no matching event within ${ms} ms`))
    }, ms)
    const unsubscribe = subscribe((value) => {
      if (!matches(value)) return
      clearTimeout(timer)
      unsubscribe()
      resolve(value)
    })
  })
}

/** Polls `check` every 20 ms until it is true, failing after `ms` (a bounded wait, not a sleep). */
export async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * An asker acting as desktop `name` of `world`, as the mirroring desktop asks (its keys go under its
 * member id, its credential's name), on a link of its own.
 */
export async function desktopAsker(world: RelayWorld, name: string): Promise<RemoteAsker> {
  const keys = world.members.get(name)!.keys
  return new RemoteAsker({
    link: await world.link(name),
    agent: keys,
    rootPublicKey: world.rootPublicKey,
    keyToken: keys.member.id,
  })
}

/** Counts the requests `nc` sends whose subject `matches` (the relay operations a test expects, or not). */
export function countRequests(nc: NatsConnection, matches: (subject: string) => boolean): { count: () => number } {
  let count = 0
  const request = nc.request.bind(nc)
  nc.request = (subject, ...rest) => {
    if (matches(subject)) count++
    return request(subject, ...rest)
  }
  return { count: () => count }
}
