import { describe, expect, it } from 'vitest'
import { randomToken, toBase64url, utf8 } from '../../../relay/crypto/encoding'
import { acceptAnswer, sealAnswer } from '../../../relay/crypto/answer-envelope'
import { openQuestion, sealQuestion } from '../../../relay/crypto/question-envelope'
import { newReplyKey } from '../../../relay/crypto/reply-key'
import { renewRoster, verifyRoster } from '../../../relay/crypto/roster'
import { signEnvelope } from '../../../relay/crypto/signing'
import { NOW, envelopeContent, expectRefusal, flipBit, makeInbox, makeMember, outcome } from './crypto-fixtures'

const questionBody = utf8(JSON.stringify({ questions: [{ question: 'Ship it?', options: ['yes', 'no'] }] }))
const answerBody = utf8(JSON.stringify({ answers: [{ selected: ['yes'] }] }))

/** An agent asks `deviceCount` devices; device `answerer` opens the question and writes an answer. */
async function askAndAnswer(deviceCount: number, answerer = 0) {
  const inbox = await makeInbox(deviceCount)
  const askId = randomToken()
  const questionKey = `q.${inbox.agent.member.id}.${askId}`
  const answerKey = `a.${inbox.agent.member.id}.${askId}`
  const reply = await newReplyKey()
  const question = await sealQuestion({
    agent: inbox.agent,
    roster: inbox.roster,
    askId,
    kvKey: questionKey,
    replyKey: reply.publicKey,
    body: questionBody,
  })
  const device = inbox.devices[answerer]!
  const opened = await openQuestion(question.bytes, { device, roster: inbox.roster, kvKey: questionKey })
  const answer = await sealAnswer({
    device,
    replyKey: opened.header.replyKey,
    kvKey: answerKey,
    askId: opened.header.askId,
    qHash: opened.qHash,
    body: answerBody,
  })
  const expected = { replyKey: reply.privateKey, roster: inbox.roster, askId, kvKey: answerKey, qHash: question.qHash }
  return { ...inbox, askId, questionKey, answerKey, reply, question, device, answer, expected }
}

describe('answer envelopes', () => {
  it.each([
    [1, 0],
    [3, 2],
    [8, 5],
  ])('with %i devices, the agent accepts the answer of device %i, naming it', async (count, answerer) => {
    const { answer, expected, device } = await askAndAnswer(count, answerer)
    const accepted = await acceptAnswer(answer, expected)
    expect(new TextDecoder().decode(accepted.body)).toBe(new TextDecoder().decode(answerBody))
    expect(accepted.device).toEqual(device.member)
    expect(new TextDecoder().decode(answer)).not.toContain('selected')
  })

  it('refuses an answer from a device removed in roster v2, valid or garbage (NOT_A_MEMBER)', async () => {
    const { root, rootPublic, roster, device, answer, expected, answerKey, askId, question } = await askAndAnswer(3, 1)
    const v2 = await renewRoster(root, roster, {
      now: NOW + 1000,
      members: roster.members.filter((member) => member.id !== device.member.id),
    })
    const current = await verifyRoster(v2.bytes, v2.signature, rootPublic, { highestSeenVersion: 1, now: NOW + 1000 })
    await expectRefusal(acceptAnswer(answer, { ...expected, roster: current }), 'NOT_A_MEMBER')
    // The removed device writes garbage that names itself, signed with its own key.
    const garbage = await signEnvelope(
      device.signing,
      utf8(
        JSON.stringify({
          header: JSON.stringify({
            v: 1,
            t: 'answer',
            kvKey: answerKey,
            askId,
            qHash: question.qHash,
            device: device.member.id,
          }),
          enc: 'AAAA',
          ct: 'AAAA',
        }),
      ),
    )
    await expectRefusal(acceptAnswer(garbage, { ...expected, roster: current }), 'NOT_A_MEMBER')
    // Under the old roster the same garbage gets past membership but still never opens.
    await expectRefusal(acceptAnswer(garbage, expected), 'ANSWER_OPEN')
  })

  it('refuses an answer written by the agent itself or by a stolen agent credential (NOT_A_MEMBER)', async () => {
    const { agent, expected, answerKey, askId, question, reply } = await askAndAnswer(1)
    const forged = await sealAnswer({
      device: agent,
      replyKey: reply.publicKey,
      kvKey: answerKey,
      askId,
      qHash: question.qHash,
      body: answerBody,
    })
    await expectRefusal(acceptAnswer(forged, expected), 'NOT_A_MEMBER')
  })

  it('refuses an answer that names a roster device but is signed by another key (ANSWER_SIGNATURE)', async () => {
    const { device, expected, answerKey, askId, question, reply } = await askAndAnswer(2)
    const impostor = await makeMember('relay', 'device')
    const posing = { ...impostor, member: { ...impostor.member, id: device.member.id } }
    const forged = await sealAnswer({
      device: posing,
      replyKey: reply.publicKey,
      kvKey: answerKey,
      askId,
      qHash: question.qHash,
      body: answerBody,
    })
    await expectRefusal(acceptAnswer(forged, expected), 'ANSWER_SIGNATURE')
  })

  it('refuses a rewritten header: by the relay (ANSWER_SIGNATURE), or re-signed over the old ciphertext (ANSWER_OPEN)', async () => {
    const { device, answer, expected } = await askAndAnswer(2)
    const content = envelopeContent(answer)
    const header = JSON.parse(content.header as string) as Record<string, unknown>
    const rewritten = utf8(
      JSON.stringify({ ...content, header: JSON.stringify({ ...header, v: 1, kvKey: expected.kvKey }) + ' ' }),
    )
    await expectRefusal(
      acceptAnswer(new Uint8Array([...rewritten, ...answer.subarray(answer.byteLength - 64)]), expected),
      'ANSWER_SIGNATURE',
    )
    await expectRefusal(acceptAnswer(await signEnvelope(device.signing, rewritten), expected), 'ANSWER_OPEN')
  })

  it('refuses an answer moved to another ask, replayed for another askId, or bound to another question (ANSWER_BINDING)', async () => {
    const { answer, expected, agent } = await askAndAnswer(1)
    const otherAsk = randomToken()
    await expectRefusal(
      acceptAnswer(answer, { ...expected, kvKey: `a.${agent.member.id}.${otherAsk}` }),
      'ANSWER_BINDING',
    )
    await expectRefusal(
      acceptAnswer(answer, { ...expected, kvKey: `a.${agent.member.id}.${otherAsk}`, askId: otherAsk }),
      'ANSWER_BINDING',
    )
    await expectRefusal(acceptAnswer(answer, { ...expected, askId: otherAsk }), 'ANSWER_BINDING')
    // The relay served the device a different question under the same key: the qHash differs.
    await expectRefusal(acceptAnswer(answer, { ...expected, qHash: toBase64url(new Uint8Array(32)) }), 'ANSWER_BINDING')
  })

  it('refuses an answer sealed to another reply key, such as one the relay substituted (ANSWER_OPEN)', async () => {
    const { device, expected, answerKey, askId, question } = await askAndAnswer(1)
    const relayKey = await newReplyKey()
    const misdirected = await sealAnswer({
      device,
      replyKey: relayKey.publicKey,
      kvKey: answerKey,
      askId,
      qHash: question.qHash,
      body: answerBody,
    })
    await expectRefusal(acceptAnswer(misdirected, expected), 'ANSWER_OPEN')
    // And a reply key from another ask cannot open the genuine answer either.
    const { answer } = await askAndAnswer(1)
    expect(await outcome(acceptAnswer(answer, { ...expected, replyKey: relayKey.privateKey }))).not.toBe('ACCEPTED')
  })

  it('refuses any flipped bit, at every byte position of the envelope', async () => {
    const { answer, expected } = await askAndAnswer(1)
    const allowed = new Set(['ANSWER_INVALID', 'NOT_A_MEMBER', 'ANSWER_SIGNATURE'])
    const seen = new Set<string>()
    for (let index = 0; index < answer.byteLength; index += 1) {
      const code = await outcome(acceptAnswer(flipBit(answer, index, (index * 3) % 8), expected))
      expect(allowed, `byte ${index}: ${code}`).toContain(code)
      seen.add(code)
    }
    expect(seen).toEqual(allowed)
  })

  it('refuses garbage (ANSWER_INVALID), and refuses to seal an answer with a malformed binding or reply key', async () => {
    const { expected, device, answerKey, askId, question } = await askAndAnswer(1)
    await expectRefusal(
      sealAnswer({
        device,
        replyKey: (await newReplyKey()).publicKey,
        kvKey: answerKey,
        askId,
        qHash: 'short',
        body: answerBody,
      }),
      'ANSWER_INVALID',
    )
    await expectRefusal(
      sealAnswer({ device, replyKey: 'AAAA', kvKey: answerKey, askId, qHash: question.qHash, body: answerBody }),
      'KEY_INVALID',
    )
    for (const bytes of [
      new Uint8Array(0),
      new Uint8Array(65),
      utf8('{"header":"{}","enc":"AA","ct":"AA"}' + 'x'.repeat(64)),
    ]) {
      await expectRefusal(acceptAnswer(bytes, expected), 'ANSWER_INVALID')
    }
  })
})
