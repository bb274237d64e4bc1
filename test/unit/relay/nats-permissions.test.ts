import { connect, credsAuthenticator, headers, type NatsConnection } from '@nats-io/transport-node'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jetstreamManager } from '@nats-io/jetstream'
import { BUCKET_SPECS, createBuckets } from '../../../relay/nats/buckets'
import { mintAdminCredential, mintRoleCredential } from '../../../relay/nats/credentials'
import { initSelfHosted, type SelfHostedInit } from '../../../relay/nats/init'
import { permissionMatrix, type MatrixRow, type Probe } from '../../../relay/nats/permission-matrix'
import { inboxPrefixFor, type Role } from '../../../relay/nats/templates'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay/nats permission tests: ${skip}`)

const NAMES: Record<Role, { self: string; other: string }> = {
  agent: { self: 'agent1', other: 'agent2' },
  device: { self: 'laptop1', other: 'agent2' },
  desktop: { self: 'desk1', other: 'agent2' },
  // A pairing credential is named by its pairing id; the matrix's `req.pair1` probe is its own request.
  pair: { self: 'pair1', other: 'pair2' },
}

/** Runs one probe; 'denied' only for the server's permission violation, 'allowed' for any other answer. */
async function runProbe(nc: NatsConnection, probe: Probe): Promise<'allowed' | 'denied'> {
  if (probe.op === 'subscribe') {
    const sub = nc.subscribe(probe.subject)
    await nc.flush()
    const closed = sub.isClosed()
    if (!closed) sub.unsubscribe()
    return closed ? 'denied' : 'allowed'
  }
  let body = ''
  const h = headers()
  if (probe.op === 'kv-create') {
    h.set('Nats-Expected-Last-Subject-Sequence', '0')
    body = 'probe'
  } else if (probe.op === 'kv-watch' || probe.op === 'legacy-consumer-create') {
    const filter = probe.op === 'kv-watch' ? `$KV.${probe.bucket}.${probe.filter}` : probe.filter
    body = JSON.stringify({
      stream_name: `KV_${probe.bucket}`,
      config: {
        filter_subject: filter,
        ack_policy: 'none',
        deliver_policy: 'last_per_subject',
        inactive_threshold: 5_000_000_000,
      },
    })
  } else if (probe.op === 'message-delete') {
    body = JSON.stringify({ seq: 1 })
  }
  try {
    await nc.request(probe.subject, body, { timeout: 3_000, headers: h })
    return 'allowed'
  } catch (error) {
    if (/permissions violation/i.test(String(error)) || /permissions violation/i.test(String((error as Error).cause)))
      return 'denied'
    throw error
  }
}

describe.skipIf(skip)('permission matrix against Debian nats-server in operator mode', () => {
  let root: string
  let init: SelfHostedInit
  let server: RunningNatsServer
  let url: string
  const open: NatsConnection[] = []

  const signer = (role: Role) => ({
    accountPublicKey: init.companionKeys.accountPublicKey,
    signingSeed: init.companionKeys.roleSigningSeeds[role],
  })
  const connectAs = async (creds: string, name: string): Promise<NatsConnection> => {
    const nc = await connect({
      servers: url,
      authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
      inboxPrefix: inboxPrefixFor(name),
      reconnect: false,
    })
    open.push(nc)
    return nc
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-perm-'))
    const port = await freePort()
    url = `127.0.0.1:${port}`
    init = await initSelfHosted(join(root, 'relay'), {
      loopbackTest: true,
      clientPort: port,
      websocketPort: await freePort(),
      allowedOrigins: ['https://inbox.example'],
    })
    server = await startNatsServer(init.configPath)
    const admin = await connectAs(await mintAdminCredential(init.accountSeed, 120), 'admin')
    expect(await createBuckets(admin)).toEqual(['inbox', 'roster', 'presence', 'pair', 'secret'])
    expect(await createBuckets(admin)).toEqual([])
  })
  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => undefined)
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('the generated matrix states the design (a wrong template fails here, not only on the server)', () => {
    const rows = permissionMatrix(NAMES)
    const allowed = (role: Role, op: Probe['op'], subject: RegExp): boolean[] =>
      rows.filter((r) => r.role === role && r.probe.op === op && subject.test(r.probe.subject)).map((r) => r.allowed)
    expect(allowed('agent', 'kv-create', /inbox\.q\.agent1\./)).toEqual([true])
    expect(
      allowed('agent', 'kv-create', /q\.agent2\.|a\.agent1\.|a\.agent2\.|roster|pair|secret/).every((a) => !a),
    ).toBe(true)
    expect(allowed('agent', 'kv-get', /a\.agent1\./)).toEqual([true, true])
    expect(allowed('agent', 'kv-get', /agent2/)).toEqual([false, false, false, false, false, false, false])
    expect(allowed('agent', 'kv-watch', /a\.agent2|q\.>/)).toEqual([false, false, false])
    // Presence: an agent refreshes only its own key; devices and the desktop watch every agent's; a device
    // writes none, the desktop only its own (its mirrored asks wait as an agent's do).
    expect(allowed('agent', 'kv-create', /presence\.agent1$/)).toEqual([true])
    expect(allowed('agent', 'kv-create', /presence\.agent2$/)).toEqual([false])
    expect(allowed('agent', 'kv-watch', /presence/)).toEqual([false])
    expect(allowed('device', 'kv-create', /presence/)).toEqual([false, false])
    expect(allowed('desktop', 'kv-create', /presence\.desk1$/)).toEqual([true])
    expect(allowed('desktop', 'kv-create', /presence\.(agent|laptop)/)).toEqual([false])
    for (const role of ['device', 'desktop'] as const) expect(allowed(role, 'kv-watch', /presence/)).toEqual([true])
    expect(allowed('device', 'kv-create', /a\.agent2\./)).toEqual([true, true])
    expect(allowed('device', 'kv-create', /roster\.(current|cred)|pair|q\./)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ])
    // Answers to passwords (bucket `secret`): any device writes one (and may read back who took the key
    // first: the value is sealed to the agent); an agent reads and watches only its own, and writes none.
    for (const role of ['device', 'desktop'] as const) {
      expect(allowed(role, 'kv-create', /\$KV\.secret\./)).toEqual([true, true, false])
      expect(allowed(role, 'kv-get', /KV_secret/)).toEqual([true, true])
      expect(allowed(role, 'kv-watch', /KV_secret/)).toEqual([false, false])
    }
    expect(allowed('agent', 'kv-create', /\$KV\.secret\./)).toEqual([false, false, false])
    expect(allowed('agent', 'kv-get', /KV_secret/)).toEqual([true, false])
    expect(allowed('agent', 'kv-watch', /KV_secret/)).toEqual([true, false])
    expect(rows.filter((r) => r.role === 'pair' && /secret/.test(r.probe.subject) && r.allowed)).toEqual([])
    expect(allowed('desktop', 'kv-create', /roster\.(current|cred)/)).toEqual([true, true])
    // The desktops' shared credential records (device nkeys, revocations): desktops only.
    for (const op of ['kv-create', 'kv-get', 'kv-watch'] as const) {
      expect(allowed('desktop', op, /desk-records/)).toEqual([true])
      for (const role of ['agent', 'device', 'pair'] as const)
        expect(allowed(role, op, /desk-records/)).toEqual([false])
    }
    // A push subscription record: a device writes only its own, the desktop reads every one, nobody else.
    expect(allowed('device', 'kv-create', /roster\.sub\./)).toEqual([true, false])
    expect(allowed('device', 'kv-get', /roster\.sub\./)).toEqual([false])
    expect(allowed('desktop', 'kv-get', /roster\.sub\./)).toEqual([true])
    expect(allowed('desktop', 'kv-watch', /roster\.sub\./)).toEqual([true])
    expect(allowed('device', 'kv-watch', /roster\.sub\./)).toEqual([false])
    for (const role of ['agent', 'pair'] as const) {
      expect(allowed(role, 'kv-create', /roster\.sub\./)).toEqual([false, false])
      expect(allowed(role, 'kv-get', /roster\.sub\./)).toEqual([false])
    }
    // Mirroring local asks: the desktop writes questions and receipts under its own name only.
    expect(allowed('desktop', 'kv-create', /inbox\.q\.desk1\.|inbox\.r\.desk1\./)).toEqual([true, true])
    expect(allowed('desktop', 'kv-create', /q\.agent2\./)).toEqual([false])
    expect(allowed('device', 'kv-create', /inbox\.q\.laptop1\.|inbox\.r\.laptop1\./)).toEqual([false, false])
    // A renewed credential: the desktop writes any device's, a device reads only its own, nobody else either.
    expect(allowed('device', 'kv-get', /roster\.cred\./)).toEqual([true, false])
    for (const role of ['agent', 'pair'] as const)
      expect(allowed(role, 'kv-get', /roster\.cred\./)).toEqual([false, false])
    // Passwords on a phone (`roster/pw.<device>`): only desktops write one (any device's); a device reads and
    // watches only its own, never another's nor the whole prefix; agents and pairing lines none at all.
    expect(allowed('desktop', 'kv-create', /roster\.pw\./)).toEqual([true, true])
    // A desktop reads any device's record (sealed to that device) to see whether the relay still holds it.
    expect(allowed('desktop', 'kv-get', /roster\.pw\./)).toEqual([true, true])
    expect(allowed('device', 'kv-create', /roster\.pw\./)).toEqual([false, false])
    expect(allowed('device', 'kv-get', /roster\.pw\./)).toEqual([true, false])
    expect(allowed('device', 'kv-watch', /roster\.pw\./)).toEqual([true, false, false])
    for (const role of ['agent', 'pair'] as const) {
      expect(allowed(role, 'kv-create', /roster\.pw\./)).toEqual([false, false])
      expect(allowed(role, 'kv-get', /roster\.pw\./)).toEqual([false, false])
      expect(allowed(role, 'kv-watch', /roster\.pw\./)).toEqual([false, false, false])
    }
    expect(rows.filter((r) => r.role === 'pair' && r.allowed).map((r) => r.probe.subject)).toEqual([
      '$KV.pair.req.pair1',
      '_INBOX.pair1.x',
    ])
    for (const role of ['agent', 'device', 'desktop'] as const) {
      for (const op of ['legacy-consumer-create', 'stream-delete', 'stream-purge', 'message-delete'] as const)
        expect(allowed(role, op, /./)).toEqual([false])
      expect(allowed(role, 'subscribe', /^_INBOX\.>$|^\$KV/)).toEqual([false, false])
    }
  })

  it('the server enforces every row of the matrix, for every role', async () => {
    const mismatches: string[] = []
    for (const role of ['agent', 'device', 'desktop', 'pair'] as const) {
      const cred = await mintRoleCredential(signer(role), role, NAMES[role].self, 300)
      const nc = await connectAs(cred.creds, NAMES[role].self)
      for (const row of permissionMatrix(NAMES).filter((r: MatrixRow) => r.role === role)) {
        const got = await runProbe(nc, row.probe)
        if (got !== (row.allowed ? 'allowed' : 'denied'))
          mismatches.push(
            `${role} ${row.probe.op} ${row.probe.subject}: expected ${row.allowed ? 'allowed' : 'denied'}, got ${got}`,
          )
      }
    }
    expect(mismatches).toEqual([])
  }, 60_000)

  it('buckets are made with direct gets, no deletes, purges or rollups, and their max_age', async () => {
    const jsm = await jetstreamManager(open[0] as NatsConnection)
    for (const spec of BUCKET_SPECS) {
      const { config } = await jsm.streams.info(`KV_${spec.name}`)
      expect(config).toMatchObject({
        allow_direct: true,
        deny_delete: true,
        deny_purge: true,
        allow_rollup_hdrs: false,
        max_msgs_per_subject: 1,
      })
      expect(config.max_age).toBe(spec.maxAgeSeconds * 1e9)
    }
    expect(BUCKET_SPECS.find((b) => b.name === 'presence')?.maxAgeSeconds).toBe(90)
    expect(BUCKET_SPECS.find((b) => b.name === 'secret')?.maxAgeSeconds).toBe(600)
  })

  it('a device may create an answer once, but cannot roll it up (purge) to replace it', async () => {
    const cred = await mintRoleCredential(signer('device'), 'device', 'laptop2', 300)
    const nc = await connectAs(cred.creds, 'laptop2')
    const h = headers()
    h.set('Nats-Expected-Last-Subject-Sequence', '0')
    const first = JSON.parse(
      new TextDecoder().decode(
        (await nc.request('$KV.inbox.a.agent3.ask9', 'one', { headers: h, timeout: 3_000 })).data,
      ),
    ) as { seq?: number }
    expect(first.seq).toBeGreaterThan(0)
    const again = JSON.parse(
      new TextDecoder().decode(
        (await nc.request('$KV.inbox.a.agent3.ask9', 'two', { headers: h, timeout: 3_000 })).data,
      ),
    ) as { error?: { err_code?: number } }
    expect(again.error?.err_code).toBe(10071)
    const rollup = headers()
    rollup.set('Nats-Rollup', 'sub')
    rollup.set('KV-Operation', 'PURGE')
    const purge = JSON.parse(
      new TextDecoder().decode(
        (await nc.request('$KV.inbox.a.agent3.ask9', '', { headers: rollup, timeout: 3_000 })).data,
      ),
    ) as { error?: { description?: string } }
    expect(purge.error?.description).toMatch(/rollup/i)
  })
})
