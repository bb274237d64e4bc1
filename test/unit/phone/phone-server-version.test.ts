// The phone's server-version check, for both of its links to the relay (pairing and the inbox): an
// outdated nats-server (Debian's 2.9.10 here) is excused on a loopback URL only, as on the desktop. The
// non-loopback case dials the same real server through a transport that ignores the URL's host, so
// the check sees `wss://relay.example/` while the bytes still come from the real server's INFO.
import type { ConnectionOptions } from '@nats-io/nats-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPhoneBridge } from '../../../phone/src/bridge/phone-bridge'
import { connectOverWebSocket, PHONE_SERVER_CHECKS } from '../../../phone/src/pairing/phone-connect'
import { pairStopText } from '../../../phone/src/pairing/pair-error-text'
import { ADVISORY_FLOORS, checkServer } from '../../../relay/nats/server-version'
import type { BridgeStatus } from '../../../shared/bridge'
import type { UiServerFrame } from '../../../shared/ui'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { nodeWsConnect } from '../../helpers/node-ws-connect'
import { phoneRecordOf } from '../../helpers/phone-record'
import { startRelayWorld, until, type RelayWorld } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone's server-version tests: ${skip}`)
const FAR_URL = 'wss://relay.example/'

describe.skipIf(skip)("the phone's server-version check (real nats-server)", () => {
  let world: RelayWorld
  let version: string

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['phone'], agents: [] })
    const member = world.members.get('phone')!
    const nc = await connectOverWebSocket(world.wsUrl, member.creds, 'phone', nodeWsConnect)
    version = nc.info!.version
    await nc.close()
  }, 60_000)
  afterAll(async () => {
    await world?.close()
  })

  /** The real server's WebSocket listener, whatever URL the phone was given. */
  const toRealServer = (options: ConnectionOptions) => nodeWsConnect({ ...options, servers: world.wsUrl })
  const advisory = () => ({
    code: 'RELAY_SERVER_ADVISORY',
    message: `The relay runs nats-server ${version}, which has known security advisories; upgrade it to ${ADVISORY_FLOORS.at(-1)!.floor} or newer.`,
  })
  /** True when the installed server is current, so there is no outdated version to refuse. */
  const serverIsCurrent = (): boolean => {
    try {
      checkServer({ version }, FAR_URL, PHONE_SERVER_CHECKS)
      console.log(`skipping: the installed nats-server ${version} is not outdated, so nothing is refused`)
      return true
    } catch {
      return false
    }
  }

  it('pairing: an outdated server reached by a non-loopback URL is refused, on loopback accepted', async (context) => {
    if (serverIsCurrent()) return context.skip()
    const member = world.members.get('phone')!
    const refused = connectOverWebSocket(FAR_URL, member.creds, 'phone', toRealServer)
    await expect(refused).rejects.toMatchObject(advisory())
    // The pairing screen names the refusal instead of calling the relay unreachable.
    const error = await refused.catch((caught: unknown) => caught)
    expect(pairStopText(error, { t: (key, values) => `${key} ${JSON.stringify(values)}` })).toEqual({
      alarm: false,
      text: `phonePairFailed ${JSON.stringify({ reason: advisory().message })}`,
    })
    const loopback = await connectOverWebSocket(world.wsUrl, member.creds, 'phone', nodeWsConnect)
    expect(loopback.info?.version).toBe(version)
    await loopback.close()
  })

  it('inbox: the bridge never opens on an outdated server reached by a non-loopback URL, and says why instead of retrying', async (context) => {
    if (serverIsCurrent()) return context.skip()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const statuses: BridgeStatus[] = []
    const bridge = createPhoneBridge(phoneRecordOf(world, FAR_URL), {
      connect: toRealServer,
      ...PHONE_SERVER_CHECKS,
      reachTimeoutMs: 5_000,
      retryMs: 200,
    })
    try {
      const frames: UiServerFrame[] = []
      bridge.onFrame((frame) => frames.push(frame))
      bridge.onStatus((status) => statuses.push(status))
      await until(() => warn.mock.calls.length > 0, 'the refusal to be reported')
      expect(warn.mock.calls[0]).toEqual(['relay: RELAY_SERVER_ADVISORY'])
      // No retry mends an outdated server: the phone stops and says what to do instead of "retrying".
      expect(statuses).toEqual(['connecting', 'refused'])
      expect(frames.filter((frame) => frame.type === 'notice/added')).toEqual([
        expect.objectContaining({
          notice: expect.objectContaining({
            notice: { kind: 'info', text: expect.stringContaining(`(RELAY_SERVER_ADVISORY): ${advisory().message}`) },
          }),
        }),
      ])
    } finally {
      await bridge.close()
      warn.mockRestore()
    }
  })
})
