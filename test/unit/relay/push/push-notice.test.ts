// The mini-notice a push carries: sealed to one phone, signed by its sender, verified against the
// root-signed roster before any text is shown. Every refusal here is what makes the service worker fall
// back to the generic "New question".
import { describe, expect, it } from 'vitest'
import { signRoster, verifyRoster } from '../../../../relay/crypto/roster'
import { openNotice, sealNotice, type NoticeDraft } from '../../../../relay/push/notice'
import { MAX_PUSH_PAYLOAD_BYTES } from '../../../../relay/push/schemas'
import { NOW, makeInbox, makeMember } from '../crypto-fixtures'

const draft: NoticeDraft = {
  askId: 'AAAAAAAAAAAAAAAAAAAAAA',
  kvKey: 'q.ci-nightly.AAAAAAAAAAAAAAAAAAAAAA',
  created: NOW,
  kind: 'ask',
  title: 'Deploy to production?',
}

describe('push notice', () => {
  it('opens and verifies for the phone it was sealed to, from an agent of the roster', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const phone = devices[1]!
    const payload = await sealNotice(agent, phone.member, draft)
    const opened = await openNotice(phone, roster, payload)
    expect(opened).toMatchObject({ verified: true, notice: { ...draft, to: phone.member.id, agent: agent.member.id } })
    // What the push service would carry: no title, no ask id, no member id in the clear.
    const text = new TextDecoder().decode(payload)
    for (const secret of [draft.title, draft.askId, agent.member.id, phone.member.id])
      expect(text).not.toContain(secret)
  })

  it('another phone of the same roster cannot open it', async () => {
    const { agent, devices, roster } = await makeInbox(3)
    const payload = await sealNotice(agent, devices[1]!.member, draft)
    expect(await openNotice(devices[2]!, roster, payload)).toEqual({ verified: false, reason: 'unreadable' })
  })

  it('a sender outside the roster (a leaked VAPID key is not enough) is refused', async () => {
    const { devices, roster } = await makeInbox(2)
    const stranger = await makeMember('stranger', 'agent')
    const payload = await sealNotice(stranger, devices[1]!.member, draft)
    expect(await openNotice(devices[1]!, roster, payload)).toEqual({ verified: false, reason: 'unknown-sender' })
  })

  it('a forged sender (names an agent of the roster, signed by another key) is refused', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const forger = await makeMember('forger', 'agent')
    // The forger signs a notice claiming to be the roster's agent.
    const posing = { ...forger, member: { ...forger.member, id: agent.member.id } }
    const payload = await sealNotice(posing, devices[1]!.member, draft)
    expect(await openNotice(devices[1]!, roster, payload)).toEqual({ verified: false, reason: 'bad-signature' })
  })

  it('an agent removed from the roster is refused', async () => {
    const { root, agent, devices } = await makeInbox(2)
    const signed = await signRoster(root, { version: 2, members: devices.map((d) => d.member), now: NOW })
    const withoutAgent = await verifyRoster(signed.bytes, signed.signature, root.publicKey, {
      highestSeenVersion: 1,
      now: NOW,
    })
    const payload = await sealNotice(agent, devices[1]!.member, draft)
    expect(await openNotice(devices[1]!, withoutAgent, payload)).toEqual({ verified: false, reason: 'unknown-sender' })
  })

  it('a payload that is not ours is unreadable, never a throw', async () => {
    const { devices, roster } = await makeInbox(2)
    for (const junk of ['', 'hello', '{"v":1,"enc":"AA","ct":"AA"}', '\u0000\u00ff'])
      expect(await openNotice(devices[1]!, roster, new TextEncoder().encode(junk))).toEqual({
        verified: false,
        reason: 'unreadable',
      })
  })

  it('the title is cut to 120 characters, so the payload stays under the push cap', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const long = await sealNotice(agent, devices[1]!.member, { ...draft, title: 'x'.repeat(5_000) })
    const opened = await openNotice(devices[1]!, roster, long)
    expect(opened.verified && opened.notice.title).toBe('x'.repeat(120))
    expect(long.byteLength).toBeLessThanOrEqual(MAX_PUSH_PAYLOAD_BYTES)
  })
})
