// The phone facing refusals no retry can mend, against a real nats-server: a credential the relay refuses
// (expired), a phone the roster does not list, a phone removed while connected. Each stops the dialling
// with status `refused` and one "Relay" notice saying what to do; a wake dials once more and, refused
// again, says nothing twice. (An outdated server: phone-server-version.test.ts.)
import type { ConnectionOptions } from '@nats-io/nats-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPhoneBridge } from '../../../phone/src/bridge/phone-bridge'
import type { PhoneRecord } from '../../../phone/src/home/phone-record'
import type { BridgeStatus } from '../../../shared/bridge'
import type { UiServerFrame } from '../../../shared/ui'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { nodeWsConnect } from '../../helpers/node-ws-connect'
import { phoneRecordOf } from '../../helpers/phone-record'
import { startRelayWorld, until, type RelayWorld } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone refusal tests: ${skip}`)

type NoticeAdded = Extract<UiServerFrame, { type: 'notice/added' }>

describe.skipIf(skip)(
  'the phone stops dialling and says why when the relay refuses it for good (real nats-server)',
  () => {
    let world: RelayWorld

    beforeAll(async () => {
      world = await startRelayWorld({ devices: ['phone', 'old-phone'], agents: [], outsiders: ['stranger'] })
    }, 60_000)
    afterAll(async () => {
      await world?.close()
    })

    const startPhone = (record: PhoneRecord) => {
      const frames: UiServerFrame[] = []
      const statuses: BridgeStatus[] = []
      let dials = 0
      let wake: () => void = () => undefined
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
      const bridge = createPhoneBridge(record, {
        connect: (options: ConnectionOptions) => {
          dials++
          return nodeWsConnect(options)
        },
        allowOutdatedLoopback: true,
        reachTimeoutMs: 5_000,
        reconnectWaitMs: 100,
        retryMs: 50,
        wake: (redial) => {
          wake = redial
          return () => undefined
        },
      })
      bridge.onFrame((frame) => frames.push(frame))
      bridge.onStatus((status) => statuses.push(status))
      const notices = () => frames.filter((f): f is NoticeAdded => f.type === 'notice/added').map((f) => f.notice)
      return {
        bridge,
        statuses,
        notices,
        dials: () => dials,
        wake: () => wake(),
        close: async () => {
          await bridge.close()
          warn.mockRestore()
        },
      }
    }

    it('an expired credential: refused with what to do, no dialling on; a wake tries once and says nothing twice', async () => {
      const expired = await world.mint('device', 'phone', 60, Date.now() - 3_600_000)
      const phone = startPhone({ ...phoneRecordOf(world, world.wsUrl), creds: expired })
      try {
        await until(() => phone.statuses.at(-1) === 'refused', 'the phone to be refused')
        expect(phone.statuses).toEqual(['connecting', 'refused'])
        expect(phone.notices()).toEqual([
          expect.objectContaining({
            title: 'Relay',
            notice: expect.objectContaining({
              text: expect.stringMatching(/^The relay refused this phone's credential: .*Relay → Add a phone\./),
            }),
          }),
        ])
        expect(phone.dials()).toBe(1)
        phone.wake()
        await until(() => phone.dials() === 2 && phone.statuses.at(-1) === 'refused', 'the wake to dial once')
        expect(phone.notices()).toHaveLength(1)
        expect(phone.dials()).toBe(2)
      } finally {
        await phone.close()
      }
    })

    it('a phone the roster does not list is told it was removed, and stops', async () => {
      const phone = startPhone(phoneRecordOf(world, world.wsUrl, 'stranger'))
      try {
        await until(() => phone.statuses.at(-1) === 'refused', 'the phone to be refused')
        expect(phone.statuses).not.toContain('open')
        expect(phone.notices().map((notice) => notice.notice.text)).toEqual([
          expect.stringMatching(/^This phone was removed from your relay on the desktop/),
        ])
        expect(phone.dials()).toBe(1)
      } finally {
        await phone.close()
      }
    })

    it('removed while connected: the new roster ends the inbox at once, with the same notice', async () => {
      const phone = startPhone(phoneRecordOf(world, world.wsUrl, 'old-phone'))
      try {
        await until(() => phone.statuses.at(-1) === 'open', 'the phone to connect', 30_000)
        await world.publishRoster(world.roster.version + 1, ['old-phone'])
        await until(() => phone.statuses.at(-1) === 'refused', 'the phone to be refused')
        expect(phone.notices().map((notice) => notice.notice.text)).toEqual([
          expect.stringMatching(/^This phone was removed from your relay on the desktop/),
        ])
      } finally {
        await phone.close()
      }
    })
  },
)
