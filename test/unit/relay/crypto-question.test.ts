import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { randomToken, utf8 } from '../../../relay/crypto/encoding'
import { openQuestion, sealQuestion } from '../../../relay/crypto/question-envelope'
import { newReplyKey } from '../../../relay/crypto/reply-key'
import { signRoster } from '../../../relay/crypto/roster'
import { signEnvelope } from '../../../relay/crypto/signing'
import { NOW, envelopeContent, expectRefusal, flipBit, makeInbox, makeMember, outcome } from './crypto-fixtures'

const body = utf8(JSON.stringify({ questions: [{ question: 'Deploy to production?', options: ['yes', 'no'] }] }))

async function askOnce(deviceCount: number) {
  const inbox = await makeInbox(deviceCount)
  const askId = randomToken()
  const kvKey = `q.${inbox.agent.member.id}.${askId}`
  const reply = await newReplyKey()
  const sealed = await sealQuestion({
    agent: inbox.agent,
    roster: inbox.roster,
    askId,
    kvKey,
    replyKey: reply.publicKey,
    body,
  })
  return { ...inbox, askId, kvKey, reply, sealed }
}

describe('question envelopes', () => {
  it.each([1, 3, 8])('seals one question to each of %i devices; each opens the same body and qHash', async (count) => {
    const { devices, sealed, kvKey, roster, agent, askId, reply } = await askOnce(count)
    expect(sealed.qHash).toBe(createHash('sha256').update(sealed.bytes).digest('base64url'))
    expect(sealed.header).toMatchObject({
      agent: agent.member.id,
      askId,
      kvKey,
      rosterVersion: 1,
      replyKey: reply.publicKey,
    })
    expect(sealed.header.recipients).toEqual(devices.map((device) => device.member.id))
    for (const device of devices) {
      const opened = await openQuestion(sealed.bytes, { device, roster, kvKey })
      expect(new TextDecoder().decode(opened.body)).toBe(new TextDecoder().decode(body))
      expect(opened.qHash).toBe(sealed.qHash)
      expect(opened.header).toEqual(sealed.header)
    }
    // The relay sees ciphertext only.
    expect(new TextDecoder().decode(sealed.bytes)).not.toContain('Deploy')
  })

  it('pads bodies so the relay learns sizes only in 512-byte steps', async () => {
    const { agent, roster } = await makeInbox(1)
    const sizes = new Set<number>()
    for (const length of [0, 10, 300, 510]) {
      const sealed = await sealQuestion({
        agent,
        roster,
        askId: 'a'.repeat(22),
        kvKey: 'q.x.y',
        replyKey: (await newReplyKey()).publicKey,
        body: new Uint8Array(length),
      })
      sizes.add(sealed.bytes.byteLength)
    }
    expect(sizes.size).toBe(1)
  })

  it('refuses a question stored under another key (QUESTION_BINDING: moved by the relay)', async () => {
    const { devices, sealed, agent, roster } = await askOnce(1)
    await expectRefusal(
      openQuestion(sealed.bytes, { device: devices[0]!, roster, kvKey: `q.${agent.member.id}.${randomToken()}` }),
      'QUESTION_BINDING',
    )
  })

  it('refuses a rewritten header: by the relay (QUESTION_SIGNATURE), or re-signed by the agent over the old ciphertext (QUESTION_OPEN)', async () => {
    const { devices, sealed, agent, roster, kvKey } = await askOnce(2)
    const content = envelopeContent(sealed.bytes)
    const relayReply = await newReplyKey()
    // The relay swaps in its own reply key to read the answer later; it keeps the agent's signature.
    const header = JSON.stringify({ ...sealed.header, replyKey: relayReply.publicKey })
    const rewritten = utf8(JSON.stringify({ ...content, header }))
    const stolenSignature = sealed.bytes.subarray(sealed.bytes.byteLength - 64)
    await expectRefusal(
      openQuestion(new Uint8Array([...rewritten, ...stolenSignature]), { device: devices[0]!, roster, kvKey }),
      'QUESTION_SIGNATURE',
    )
    // Even a signature over the new header does not open: the header is the AAD of the sealed parts.
    const resigned = await signEnvelope(agent.signing, rewritten)
    await expectRefusal(openQuestion(resigned, { device: devices[1]!, roster, kvKey }), 'QUESTION_OPEN')
  })

  it('refuses any flipped bit, at every byte position of a one-device envelope', async () => {
    const { devices, sealed, roster, kvKey } = await askOnce(1)
    const allowed = new Set(['QUESTION_INVALID', 'QUESTION_UNKNOWN_AGENT', 'QUESTION_SIGNATURE'])
    const seen = new Set<string>()
    for (let index = 0; index < sealed.bytes.byteLength; index += 1) {
      const code = await outcome(
        openQuestion(flipBit(sealed.bytes, index, index % 8), { device: devices[0]!, roster, kvKey }),
      )
      expect(allowed, `byte ${index}: ${code}`).toContain(code)
      seen.add(code)
    }
    expect(seen).toContain('QUESTION_SIGNATURE')
  })

  it('refuses a random flipped bit in an eight-device envelope (property)', async () => {
    const { devices, sealed, roster, kvKey } = await askOnce(8)
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: sealed.bytes.byteLength - 1 }),
        fc.nat({ max: 7 }),
        fc.nat({ max: 7 }),
        async (index, bit, who) => {
          const code = await outcome(
            openQuestion(flipBit(sealed.bytes, index, bit), { device: devices[who]!, roster, kvKey }),
          )
          expect(code).not.toBe('ACCEPTED')
        },
      ),
      { numRuns: 150 },
    )
  })

  it('refuses a question from an agent the roster does not list, or from a device posing as an agent (QUESTION_UNKNOWN_AGENT)', async () => {
    const { devices, roster } = await makeInbox(2)
    const stranger = await makeMember('stranger', 'agent')
    const kvKey = `q.${stranger.member.id}.${randomToken()}`
    const sealed = await sealQuestion({
      agent: stranger,
      roster,
      askId: randomToken(),
      kvKey,
      replyKey: (await newReplyKey()).publicKey,
      body,
    })
    await expectRefusal(openQuestion(sealed.bytes, { device: devices[0]!, roster, kvKey }), 'QUESTION_UNKNOWN_AGENT')
    const posing = await sealQuestion({
      agent: devices[1]!,
      roster,
      askId: randomToken(),
      kvKey,
      replyKey: (await newReplyKey()).publicKey,
      body,
    })
    await expectRefusal(openQuestion(posing.bytes, { device: devices[0]!, roster, kvKey }), 'QUESTION_UNKNOWN_AGENT')
  })

  it('opens a question the desktop asks itself (it mirrors its local asks); a paired device still cannot ask', async () => {
    const { devices, roster } = await makeInbox(2)
    const kvKey = `q.${devices[0]!.member.id}.${randomToken()}`
    const sealed = await sealQuestion({
      agent: devices[0]!,
      roster,
      askId: randomToken(),
      kvKey,
      replyKey: (await newReplyKey()).publicKey,
      body,
    })
    const opened = await openQuestion(sealed.bytes, { device: devices[1]!, roster, kvKey })
    expect(opened.header.agent).toBe(devices[0]!.member.id)
  })

  it('tells a device added later that the question was not sealed to it (QUESTION_NOT_RECIPIENT)', async () => {
    const { root, sealed, roster, kvKey } = await askOnce(1)
    const late = await makeMember('new laptop', 'device')
    const v2 = await signRoster(root, { version: 2, members: [...roster.members, late.member], now: NOW })
    await expectRefusal(
      openQuestion(sealed.bytes, { device: late, roster: v2.roster, kvKey }),
      'QUESTION_NOT_RECIPIENT',
    )
  })

  it('refuses garbage and truncated envelopes (QUESTION_INVALID) and a roster with no device (NO_RECIPIENTS)', async () => {
    const { devices, sealed, roster, kvKey, agent } = await askOnce(1)
    for (const bytes of [
      new Uint8Array(0),
      new Uint8Array(64),
      new Uint8Array(500).fill(0x7b),
      sealed.bytes.subarray(0, sealed.bytes.byteLength - 1),
    ]) {
      const code = await outcome(openQuestion(bytes, { device: devices[0]!, roster, kvKey }))
      expect(['QUESTION_INVALID', 'QUESTION_SIGNATURE']).toContain(code)
    }
    await expectRefusal(
      openQuestion(new Uint8Array(500).fill(0x7b), { device: devices[0]!, roster, kvKey }),
      'QUESTION_INVALID',
    )
    // Bad arguments get a coded error, not a schema exception.
    await expectRefusal(
      sealQuestion({
        agent,
        roster,
        askId: 'has.dot.in.it.xxxxxxxx',
        kvKey,
        replyKey: (await newReplyKey()).publicKey,
        body,
      }),
      'QUESTION_INVALID',
    )
    await expectRefusal(
      sealQuestion({ agent, roster, askId: randomToken(), kvKey, replyKey: 'not-a-key', body }),
      'QUESTION_INVALID',
    )
    const agentsOnly = { ...roster, members: [agent.member] }
    await expectRefusal(
      sealQuestion({
        agent,
        roster: agentsOnly,
        askId: randomToken(),
        kvKey,
        replyKey: (await newReplyKey()).publicKey,
        body,
      }),
      'NO_RECIPIENTS',
    )
  })
})
