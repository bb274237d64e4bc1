// A relay made by an older release: its account JWT carries the older role templates, so the desktop may not
// write its own question key ("mirror local asks") until a renewal on the first desktop re-signs and pushes
// the account JWT with this release's templates. A second renewal pushes nothing; nor does the first renewal
// of a relay this release made (init records the account it wrote). Real nats-server, operator mode.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import { ACCOUNT_PUSH_FILE, accountDigest, pushPersonAccount } from '../../../../relay/home/account-push'
import { openDesktopLink } from '../../../../relay/home/desktop-link'
import { loadRelayKeys } from '../../../../relay/nats/keys-file'
import { scopedLimits, type Role } from '../../../../relay/nats/templates'
import { connectRelay, putEntry } from '../../../../relay/pairing'
import { renewRelayAtStart } from '../../../../relay/renewal'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { memoryIo } from '../memory-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay account renewal tests: ${skip}`)
const CHECKS = { allowOutdatedLoopback: true }

/** The desktop template before "mirror local asks": no question, receipt or presence key of its own. */
const MIRROR_RIGHTS = ['$KV.inbox.q.{{name()}}.*', '$KV.inbox.r.{{name()}}.*', '$KV.presence.{{name()}}']
const olderLimits = (role: Role) => {
  const limits = scopedLimits(role)
  if (role !== 'desktop') return limits
  return { ...limits, pub: { allow: limits.pub!.allow!.filter((s) => !MIRROR_RIGHTS.includes(s)), deny: [] } }
}

/** `relay init --loopback` in a fresh home and the nats-server it configured. */
async function initRelayHome(): Promise<{ root: string; home: string; url: string; server: RunningNatsServer }> {
  const root = await mkdtemp(join(tmpdir(), 'relay-renew-account-'))
  const home = join(root, 'desk-home')
  const port = await freePort()
  const url = `nats://127.0.0.1:${port}`
  const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://inbox.example']
  const ports = ['--client-port', String(port), '--ws-port', String(await freePort()), '--url', url]
  const io = memoryIo({ ASK_USER_HOME: home })
  expect(await main([...init, '--loopback', ...ports], io)).toBe(0)
  const server = await startNatsServer(/start: nats-server -c (\S+)/.exec(io.out())![1]!)
  return { root, home, url, server }
}

/** Counts the account pushes (the system account's claims-update subject) while `run` runs. */
async function countPushes(home: string, url: string, run: () => Promise<void>): Promise<string[]> {
  const sys = await connectRelay(url, (await loadRelayKeys(home)).systemUserCreds, 'ask-user-sys', CHECKS)
  const pushes: string[] = []
  const sub = sys.subscribe('$SYS.REQ.CLAIMS.UPDATE', { callback: (_error, msg) => void pushes.push(msg.string()) })
  await sys.flush()
  try {
    await run()
    await sys.flush()
    return pushes
  } finally {
    sub.unsubscribe()
    await sys.close()
  }
}

describe.skipIf(skip)('a relay this release made', () => {
  it('init records the account JWT it wrote into the config: the first renewal pushes nothing', async () => {
    const { root, home, url, server } = await initRelayHome()
    try {
      const recorded = JSON.parse(await readFile(join(home, ACCOUNT_PUSH_FILE), 'utf8')) as unknown
      expect(recorded).toEqual({ v: 1, digest: accountDigest({}) })
      const pushes = await countPushes(home, url, async () => {
        const first = await renewRelayAtStart(home, { server: CHECKS })
        expect(first).toMatchObject({ role: 'desktop', published: true, accountUpdated: false })
        expect(first.role === 'desktop' && first.problem).toBeUndefined()
      })
      expect(pushes).toEqual([])
    } finally {
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  }, 60_000)
})

describe.skipIf(skip)('renewals bring an older relay account up to the current role templates', () => {
  let root: string
  let home: string
  let server: RunningNatsServer
  let url: string

  beforeAll(async () => {
    ;({ root, home, url, server } = await initRelayHome())
    // The relay as an older release left it: its account JWT signed with the older desktop template.
    expect(
      await pushPersonAccount(home, url, await loadRelayKeys(home), {}, { server: CHECKS, limits: olderLimits }),
    ).toBe(true)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  /** Writes the desktop's own question key through a fresh desktop connection. */
  const writeOwnQuestion = async (): Promise<number> => {
    const link = await openDesktopLink(home, Date.now, CHECKS)
    try {
      return await putEntry(link.nc, 'inbox', `q.${link.desktop.member.id}.probe`, new TextEncoder().encode('{}'))
    } finally {
      await link.nc.close()
    }
  }

  it('refused before, allowed after one renewal; the next renewal pushes nothing', async () => {
    await expect(writeOwnQuestion()).rejects.toThrow(/Permissions Violation for Publish to "\$KV\.inbox\.q\./)

    // Every account push goes to the system account's claims-update subject: count them there.
    const keys = await loadRelayKeys(home)
    const sys = await connectRelay(url, keys.systemUserCreds, 'ask-user-sys', CHECKS)
    const pushes: string[] = []
    const sub = sys.subscribe('$SYS.REQ.CLAIMS.UPDATE', { callback: (_error, msg) => void pushes.push(msg.string()) })
    await sys.flush()
    try {
      const first = await renewRelayAtStart(home, { server: CHECKS })
      expect(first).toMatchObject({ role: 'desktop', published: true, accountUpdated: true })
      expect(first.role === 'desktop' && first.problem).toBeUndefined()
      expect(await writeOwnQuestion()).toBeGreaterThan(0)
      await sys.flush()
      expect(pushes).toHaveLength(1)
      const recorded = await readFile(join(home, ACCOUNT_PUSH_FILE), 'utf8')

      const second = await renewRelayAtStart(home, { server: CHECKS })
      expect(second).toMatchObject({ role: 'desktop', published: true, accountUpdated: false })
      await sys.flush()
      expect(pushes).toHaveLength(1)
      expect(await readFile(join(home, ACCOUNT_PUSH_FILE), 'utf8')).toBe(recorded)
    } finally {
      sub.unsubscribe()
      await sys.close()
    }
  }, 60_000)
})
