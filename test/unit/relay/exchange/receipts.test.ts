import { describe, expect, it } from 'vitest'
import { openReceipt, signReceipt } from '../../../../relay/crypto'
import { expectRefusal, flipBit, makeInbox, makeMember } from '../crypto-fixtures'

const ASK = 'AAAAAAAAAAAAAAAAAAAAAA'
const KEY = `r.ci-nightly.${ASK}`

describe('receipts: signed by the asking agent, bound to their key', () => {
  it('a delivered receipt names its winner and opens for every device', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const bytes = await signReceipt(agent, {
      askId: ASK,
      kvKey: KEY,
      outcome: 'delivered',
      winner: devices[1]!.member.id,
    })
    expect(await openReceipt(bytes, { roster, kvKey: KEY })).toEqual({
      v: 1,
      t: 'receipt',
      agent: agent.member.id,
      askId: ASK,
      kvKey: KEY,
      outcome: 'delivered',
      winner: devices[1]!.member.id,
    })
  })

  it('refuses a flipped signature bit, a receipt moved to another key, a signer outside the roster, and garbage', async () => {
    const { agent, roster } = await makeInbox(1)
    const bytes = await signReceipt(agent, { askId: ASK, kvKey: KEY, outcome: 'withdrawn' })
    await expectRefusal(
      openReceipt(flipBit(bytes, bytes.byteLength - 1, 0), { roster, kvKey: KEY }),
      'RECEIPT_SIGNATURE',
    )
    await expectRefusal(openReceipt(bytes, { roster, kvKey: `r.ci-nightly.${'B'.repeat(22)}` }), 'RECEIPT_BINDING')
    const stranger = await makeMember('ci-nightly', 'agent')
    await expectRefusal(
      openReceipt(await signReceipt(stranger, { askId: ASK, kvKey: KEY, outcome: 'withdrawn' }), {
        roster,
        kvKey: KEY,
      }),
      'RECEIPT_SIGNATURE',
    )
    await expectRefusal(
      openReceipt(new TextEncoder().encode('not a receipt at all, long enough to hold a signature of 64 bytes....'), {
        roster,
        kvKey: KEY,
      }),
      'RECEIPT_INVALID',
    )
  })

  it('will not sign a receipt whose outcome and fields disagree', async () => {
    const { agent } = await makeInbox(1)
    await expectRefusal(signReceipt(agent, { askId: ASK, kvKey: KEY, outcome: 'delivered' }), 'RECEIPT_INVALID')
    await expectRefusal(signReceipt(agent, { askId: ASK, kvKey: KEY, outcome: 'reasked' }), 'RECEIPT_INVALID')
  })
})
