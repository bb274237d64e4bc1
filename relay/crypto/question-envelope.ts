// Question envelopes (agent → devices). A random 32-byte content key seals the padded body with
// AES-256-GCM; the key is HPKE-sealed to each answering member of the roster; the header (who asks,
// which ask, which KV key, which reply key, which recipients) is the AAD of every sealed part; and the
// agent signs the exact stored bytes. `qHash`, the SHA-256 of those bytes, is what answers bind to.
import { RelayCryptoError } from './errors'
import {
  fromBase64url,
  fromUtf8,
  ownBytes,
  parseJson,
  randomBytes,
  sha256,
  toBase64url,
  utf8,
  type Bytes,
} from './encoding'
import { hpkeRecipientOf, type MemberKeys } from './keys'
import { pad, unpad } from './padding'
import { answeringMembers, findMember } from './roster'
import { QuestionContentSchema, QuestionHeaderSchema, type QuestionHeader, type Roster } from './schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from './signing'
import { CONTENT_KEY_INFO, X25519_SUITE } from './suite'

/** A question as stored on the relay, with the hash answers must bind to. */
export interface SealedQuestion {
  /** The exact bytes to store under `kvKey`: signed content followed by the 64-byte signature. */
  readonly bytes: Bytes
  /** SHA-256 of `bytes`, base64url. */
  readonly qHash: string
  readonly header: QuestionHeader
}

/** A question a device opened: verified, addressed to it, decrypted. */
export interface OpenedQuestion {
  readonly header: QuestionHeader
  readonly body: Bytes
  /** SHA-256 of the exact stored bytes, base64url: put it in the answer. */
  readonly qHash: string
}

/**
 * Seals `body` (the frame body's bytes) from `agent` to every desktop and device in `roster`, for the
 * ask `askId` stored at `kvKey`, with `replyKey` (base64url X25519, see `newReplyKey`) as the key the
 * answer must be sealed to. Throws `NO_RECIPIENTS` when the roster lists no device to ask, `QUESTION_INVALID` when `askId`,
 * `kvKey` or `replyKey` is malformed.
 */
export async function sealQuestion(options: {
  agent: MemberKeys
  roster: Roster
  askId: string
  kvKey: string
  replyKey: string
  body: Uint8Array
}): Promise<SealedQuestion> {
  const recipients = answeringMembers(options.roster)
  if (recipients.length === 0) {
    throw new RelayCryptoError('NO_RECIPIENTS', 'the roster lists no device to ask; pair a device on the desktop first')
  }
  const parsed = QuestionHeaderSchema.safeParse({
    v: 1,
    t: 'ask',
    agent: options.agent.member.id,
    askId: options.askId,
    kvKey: options.kvKey,
    rosterVersion: options.roster.version,
    replyKey: options.replyKey,
    recipients: recipients.map((member) => member.id),
  })
  if (!parsed.success) {
    throw new RelayCryptoError(
      'QUESTION_INVALID',
      `cannot seal this question: ${parsed.error.issues[0]?.path.join('.') ?? 'header'} is invalid (askId and kvKey must be KV key tokens, replyKey from newReplyKey())`,
    )
  }
  const header = parsed.data
  const headerText = JSON.stringify(header)
  const aad = utf8(headerText)
  const contentKey = randomBytes(32)
  const iv = randomBytes(12)
  const encryptBody = async (): Promise<Bytes> => {
    const aesKey = await crypto.subtle.importKey('raw', contentKey, { name: 'AES-GCM' }, false, ['encrypt'])
    const padded = pad(ownBytes(options.body))
    return new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, aesKey, padded))
  }
  // The body and one HPKE seal per recipient, all at once: WebCrypto runs them off the event loop, side by side.
  const [ct, keys] = await Promise.all([
    encryptBody(),
    Promise.all(
      recipients.map(async (member) => {
        const recipientPublicKey = await X25519_SUITE.kem.deserializePublicKey(
          fromBase64url(member.hpkePublic)!.slice().buffer,
        )
        const sealed = await X25519_SUITE.seal({ recipientPublicKey, info: CONTENT_KEY_INFO }, contentKey, aad)
        return {
          to: member.id,
          enc: toBase64url(new Uint8Array(sealed.enc)),
          key: toBase64url(new Uint8Array(sealed.ct)),
        }
      }),
    ),
  ])
  const content = JSON.stringify({ header: headerText, keys, iv: toBase64url(iv), ct: toBase64url(ct) })
  const bytes = await signEnvelope(options.agent.signing, utf8(content))
  return { bytes, qHash: toBase64url(await sha256(bytes)), header }
}

/**
 * Opens a stored question as `device`, read from `kvKey`, against the verified `roster`. Refuses with:
 * `QUESTION_INVALID` (malformed), `QUESTION_UNKNOWN_AGENT` (the asking agent is not in the roster),
 * `QUESTION_SIGNATURE` (not signed by that agent over these exact bytes), `QUESTION_BINDING` (the
 * envelope names another KV key: moved by the relay), `QUESTION_NOT_RECIPIENT` (not sealed to this
 * device), `QUESTION_OPEN` (decryption failed: tampered or sealed to an old key).
 */
export async function openQuestion(
  storedBytes: Uint8Array,
  options: { device: MemberKeys; roster: Roster; kvKey: string },
): Promise<OpenedQuestion> {
  const stored = ownBytes(storedBytes)
  const parts = splitEnvelope(stored)
  const contentText = parts && fromUtf8(parts.content)
  const content = QuestionContentSchema.safeParse(contentText === undefined ? undefined : parseJson(contentText))
  const header = content.success ? QuestionHeaderSchema.safeParse(parseJson(content.data.header)) : undefined
  if (!parts || !content.success || !header?.success) {
    throw new RelayCryptoError('QUESTION_INVALID', 'the stored question is not a question envelope; ignoring it')
  }
  const agent = findMember(options.roster, header.data.agent)
  // The desktop asks too when it mirrors its local agents' asks; the exchange shows those as mirrored.
  if (agent?.role !== 'agent' && agent?.role !== 'desktop') {
    throw new RelayCryptoError(
      'QUESTION_UNKNOWN_AGENT',
      'the question comes from an agent the roster does not list; add the agent on the desktop to see its questions',
    )
  }
  const recipients = header.data.recipients
  const keysMatch =
    content.data.keys.length === recipients.length &&
    content.data.keys.every((entry, index) => entry.to === recipients[index])
  const wrapped = content.data.keys.find((entry) => entry.to === options.device.member.id)
  // The signature check, the hash and the opening run side by side (WebCrypto, off the event loop); the
  // checks below still refuse in this order, and nothing opened is used unless every one of them passed.
  const signed = verifyBytes(fromBase64url(agent.signPublic)!, parts.signature, parts.content)
  const qHash = sha256(stored)
  const bound = header.data.kvKey === options.kvKey
  const opening =
    bound && keysMatch && wrapped
      ? openBody(options.device, wrapped, content.data, utf8(content.data.header))
      : Promise.resolve(undefined)
  if (!(await signed)) {
    throw new RelayCryptoError(
      'QUESTION_SIGNATURE',
      `the question is not signed by agent "${agent.name}"; ignoring it (it was changed on the way)`,
    )
  }
  if (!bound) {
    throw new RelayCryptoError(
      'QUESTION_BINDING',
      'the question was written for another KV key; ignoring it (moved by the relay)',
    )
  }
  if (!keysMatch) {
    throw new RelayCryptoError(
      'QUESTION_INVALID',
      "the question's wrapped keys do not match its recipients; ignoring it",
    )
  }
  if (!wrapped) {
    throw new RelayCryptoError(
      'QUESTION_NOT_RECIPIENT',
      'the question is not sealed to this device (it was asked before this device joined the roster)',
    )
  }
  const body = await opening
  if (!body)
    throw new RelayCryptoError(
      'QUESTION_OPEN',
      "the question could not be decrypted with this device's key; ignoring it",
    )
  return { header: header.data, body, qHash: toBase64url(await qHash) }
}

async function openBody(
  device: MemberKeys,
  wrapped: { enc: string; key: string },
  content: { iv: string; ct: string },
  aad: Bytes,
): Promise<Bytes | undefined> {
  try {
    const contentKey = await X25519_SUITE.open(
      {
        recipientKey: hpkeRecipientOf(device),
        enc: fromBase64url(wrapped.enc)!.slice().buffer,
        info: CONTENT_KEY_INFO,
      },
      fromBase64url(wrapped.key)!.slice().buffer,
      aad,
    )
    if (contentKey.byteLength !== 32) return undefined
    const aesKey = await crypto.subtle.importKey('raw', contentKey, { name: 'AES-GCM' }, false, ['decrypt'])
    const padded = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64url(content.iv)!, additionalData: aad },
      aesKey,
      fromBase64url(content.ct)!,
    )
    return unpad(new Uint8Array(padded))
  } catch {
    return undefined
  }
}
