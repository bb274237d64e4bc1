// Answer envelopes (device → agent). The padded answer is HPKE-sealed to the reply key the agent put in
// the question, with the header {kvKey, askId, qHash, device} as AAD, and the device signs the exact
// stored bytes. The agent accepts it only from a desktop or device of the current roster, bound to this
// ask and this exact question: the relay, a stolen agent credential or a removed device cannot make one.
import { RelayCryptoError } from './errors'
import {
  fromBase64url,
  fromUtf8,
  ownBytes,
  parseJson,
  toBase64url,
  utf8,
  type Bytes,
  type HpkeRecipientKey,
} from './encoding'
import type { MemberKeys } from './keys'
import { pad, unpad } from './padding'
import { findMember } from './roster'
import { AnswerContentSchema, AnswerHeaderSchema, type AnswerHeader, type Member, type Roster } from './schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from './signing'
import { ANSWER_INFO, X25519_SUITE } from './suite'

/** An answer the agent accepted: its body and the roster member who answered. */
export interface AcceptedAnswer {
  readonly body: Bytes
  readonly device: Member
  readonly header: AnswerHeader
}

/**
 * Seals `body` (the answer frame's bytes) from `device` to the question's `replyKey` (base64url, from the
 * opened question's header), bound to the answer's `kvKey`, the `askId` and the question's `qHash`.
 * Returns the exact bytes to `create()` at `kvKey`. Throws `KEY_INVALID` when `replyKey` is not a key, `ANSWER_INVALID` when `kvKey`,
 * `askId` or `qHash` is malformed.
 */
export async function sealAnswer(options: {
  device: MemberKeys
  replyKey: string
  kvKey: string
  askId: string
  qHash: string
  body: Uint8Array
}): Promise<Bytes> {
  const parsed = AnswerHeaderSchema.safeParse({
    v: 1,
    t: 'answer',
    kvKey: options.kvKey,
    askId: options.askId,
    qHash: options.qHash,
    device: options.device.member.id,
  })
  if (!parsed.success) {
    throw new RelayCryptoError(
      'ANSWER_INVALID',
      `cannot seal this answer: ${parsed.error.issues[0]?.path.join('.') ?? 'header'} is invalid (take askId and qHash from the opened question)`,
    )
  }
  const header = parsed.data
  const headerText = JSON.stringify(header)
  const replyKeyBytes = fromBase64url(options.replyKey)
  const recipientPublicKey = await X25519_SUITE.kem
    .deserializePublicKey((replyKeyBytes ?? new Uint8Array()).slice().buffer)
    .catch(() => undefined)
  if (!recipientPublicKey)
    throw new RelayCryptoError(
      'KEY_INVALID',
      "the question's reply key is not an X25519 key; the answer cannot be sealed",
    )
  const sealed = await X25519_SUITE.seal(
    { recipientPublicKey, info: ANSWER_INFO },
    pad(ownBytes(options.body)),
    utf8(headerText),
  )
  const content = JSON.stringify({
    header: headerText,
    enc: toBase64url(new Uint8Array(sealed.enc)),
    ct: toBase64url(new Uint8Array(sealed.ct)),
  })
  return signEnvelope(options.device.signing, utf8(content))
}

/**
 * Accepts a stored answer for the agent's ask, or refuses it with a stable code:
 * - `ANSWER_INVALID`: not an answer envelope at all (garbage);
 * - `NOT_A_MEMBER`: it names no desktop or device of `roster` (a removed device, an agent, a stranger);
 * - `ANSWER_SIGNATURE`: that member did not sign these exact bytes (rewritten or flipped on the way);
 * - `ANSWER_BINDING`: it answers another KV key, ask or question (moved, replayed, or an answer to an
 *   older version of the question);
 * - `ANSWER_OPEN`: it does not decrypt with this ask's reply key under its own header.
 * `roster` must come from `verifyRoster`; `qHash` is the one `sealQuestion` returned.
 */
export async function acceptAnswer(
  storedBytes: Uint8Array,
  options: { replyKey: HpkeRecipientKey; roster: Roster; askId: string; kvKey: string; qHash: string },
): Promise<AcceptedAnswer> {
  const { device, header, content } = await checkAnswer(storedBytes, options)
  const body = await openAnswer(options.replyKey, content, utf8(content.header))
  if (!body)
    throw new RelayCryptoError(
      'ANSWER_OPEN',
      `the answer by "${device.name}" does not decrypt with this ask's reply key; ignoring it`,
    )
  return { body, device, header }
}

/**
 * Who answered, for a device that lost the race and cannot decrypt the winner's answer: the same checks
 * as {@link acceptAnswer} except decryption (`ANSWER_INVALID`, `NOT_A_MEMBER`, `ANSWER_SIGNATURE`,
 * `ANSWER_BINDING`). Resolves with the roster member that signed the stored answer for this ask.
 */
export async function verifyAnswerOrigin(
  storedBytes: Uint8Array,
  options: { roster: Roster; askId: string; kvKey: string; qHash: string },
): Promise<{ device: Member; header: AnswerHeader }> {
  const { device, header } = await checkAnswer(storedBytes, options)
  return { device, header }
}

async function checkAnswer(
  storedBytes: Uint8Array,
  options: { roster: Roster; askId: string; kvKey: string; qHash: string },
): Promise<{ device: Member; header: AnswerHeader; content: { header: string; enc: string; ct: string } }> {
  const parts = splitEnvelope(ownBytes(storedBytes))
  const contentText = parts && fromUtf8(parts.content)
  const content = AnswerContentSchema.safeParse(contentText === undefined ? undefined : parseJson(contentText))
  const header = content.success ? AnswerHeaderSchema.safeParse(parseJson(content.data.header)) : undefined
  if (!parts || !content.success || !header?.success) {
    throw new RelayCryptoError(
      'ANSWER_INVALID',
      'the stored answer is not an answer envelope; ignoring it and waiting for a valid one',
    )
  }
  const device = findMember(options.roster, header.data.device)
  if (!device || device.role === 'agent') {
    throw new RelayCryptoError(
      'NOT_A_MEMBER',
      'the answer names no device of the current roster (removed or never paired); ignoring it',
    )
  }
  if (!(await verifyBytes(fromBase64url(device.signPublic)!, parts.signature, parts.content))) {
    throw new RelayCryptoError(
      'ANSWER_SIGNATURE',
      `the answer is not signed by "${device.name}"; ignoring it (it was changed on the way)`,
    )
  }
  const bound = header.data
  if (bound.kvKey !== options.kvKey || bound.askId !== options.askId || bound.qHash !== options.qHash) {
    throw new RelayCryptoError(
      'ANSWER_BINDING',
      `the answer by "${device.name}" belongs to another ask or question; ignoring it`,
    )
  }
  return { device, header: bound, content: content.data }
}

async function openAnswer(
  replyKey: HpkeRecipientKey,
  content: { enc: string; ct: string },
  aad: Bytes,
): Promise<Bytes | undefined> {
  try {
    const padded = await X25519_SUITE.open(
      { recipientKey: replyKey, enc: fromBase64url(content.enc)!.slice().buffer, info: ANSWER_INFO },
      fromBase64url(content.ct)!.slice().buffer,
      aad,
    )
    return unpad(new Uint8Array(padded))
  } catch {
    return undefined
  }
}
