// How a desk reads one stored question: open it (behind the opener seam), check that the roster's agent
// that signed it is the one whose name the key carries, and parse the body. A question from an agent
// added after the desk last read the roster is tried once more against the newest roster.
import type { KV } from '@nats-io/kv'
import {
  findMember,
  isRelayCryptoError,
  type Member,
  type MemberKeys,
  type QuestionHeader,
  type RelayCryptoCode,
} from '../crypto'
import type { RemoteAsk } from './desk-types'
import type { QuestionOpener } from './question-opener'
import type { RosterPin } from './roster-source'
import { RemoteQuestionBodySchema, type RemoteQuestionBody } from './schemas'

/** A question this desk may show: its verified header, the signing agent, the parsed body, the hash answers bind to. */
export interface ReadQuestion {
  readonly header: QuestionHeader
  readonly agent: Member
  readonly body: RemoteQuestionBody
  readonly qHash: string
}

/** Why a stored question is not shown (relay/crypto's code, or `EXCHANGE_INVALID` for the exchange's own rules). */
export interface QuestionRefusal {
  readonly code: RelayCryptoCode | 'EXCHANGE_INVALID'
  readonly message: string
}

/** What {@link readQuestion} needs from the desk. */
export interface QuestionReader {
  device: MemberKeys
  pin: RosterPin
  rosterBucket: KV
  opener: QuestionOpener
}

/**
 * Reads the question stored at `key` (`q.<agent>.<askId>`, already split into `agent` and `askId`).
 * Resolves with the question, or with the refusal to report; never throws for what the relay stored.
 */
export async function readQuestion(
  value: Uint8Array,
  key: { key: string; agent: string; askId: string },
  reader: QuestionReader,
): Promise<ReadQuestion | QuestionRefusal> {
  for (let attempt = 0; ; attempt++) {
    const roster = reader.pin.current!
    try {
      const opened = await reader.opener(value, { device: reader.device, roster, kvKey: key.key })
      const agent = findMember(roster, opened.header.agent)!
      // The key's agent token is the credential that wrote it; the signer must be the roster's member
      // of that credential name (an agent's name; a desktop's credential is named by its member id).
      if (askerToken(agent) !== key.agent || opened.header.askId !== key.askId) {
        return {
          code: 'EXCHANGE_INVALID',
          message: `the question is signed by agent "${agent.name}" but stored under "${key.agent}"; ignoring it`,
        }
      }
      const body = RemoteQuestionBodySchema.safeParse(parseJson(opened.body))
      if (!body.success)
        return { code: 'EXCHANGE_INVALID', message: 'the question body is not a remote ask; ignoring it' }
      // Only a desktop mirrors, and everything a desktop asks is mirrored: an agent cannot pass itself
      // off as a local agent of some desk, nor a desktop's ask go unmarked.
      if ((agent.role === 'desktop') !== (body.data.mirroredFor !== undefined))
        return {
          code: 'EXCHANGE_INVALID',
          message: `the question from "${agent.name}" is marked mirrored wrongly for its role; ignoring it`,
        }
      // Approvals travel only as a desktop's mirror of its local agent's permission prompt.
      if ('approval' in body.data && agent.role !== 'desktop')
        return {
          code: 'EXCHANGE_INVALID',
          message: `"${agent.name}" sent an approval; only a desktop mirrors one; ignoring it`,
        }
      return { header: opened.header, agent, body: body.data, qHash: opened.qHash }
    } catch (error) {
      if (!isRelayCryptoError(error))
        return { code: 'EXCHANGE_INVALID', message: 'the question could not be read; ignoring it' }
      const rosterMayBeOld = error.code === 'QUESTION_UNKNOWN_AGENT' || error.code === 'QUESTION_NOT_RECIPIENT'
      if (
        attempt === 0 &&
        rosterMayBeOld &&
        (await reader.pin.fetch(reader.rosterBucket).then(
          () => true,
          () => false,
        ))
      )
        continue
      return { code: error.code, message: error.message }
    }
  }
}

/** True when {@link readQuestion} refused the question. */
export function isRefusal(result: ReadQuestion | QuestionRefusal): result is QuestionRefusal {
  return 'code' in result
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown
  } catch {
    return undefined
  }
}

/**
 * The token of the inbox keys a member writes under: its credential's name, which the server binds to
 * what it may write. An agent's credential carries its roster name; the desktop's its member id.
 */
export function askerToken(member: Member): string {
  return member.role === 'agent' ? member.name : member.id
}

/** How desks name a mirrored local ask's agent: the name it gave on its desktop, then the desktop's roster name. */
export function mirroredName(localName: string, desktopName: string): string {
  return `${localName} on ${desktopName}`
}

/** The pending ask a desk lists for the question `read`, stored at `key` under `askId`. */
export function remoteAskOf(key: string, askId: string, read: ReadQuestion): RemoteAsk {
  const { agent, body } = read
  return {
    key,
    askId,
    agent: {
      name: body.mirroredFor === undefined ? agent.name : mirroredName(body.mirroredFor, agent.name),
      id: agent.id,
    },
    ...('questions' in body ? { questions: body.questions } : { questions: [], approval: body.approval }),
    ...(body.title === undefined ? {} : { title: body.title }),
    ...(body.previousAskId === undefined ? {} : { previousAskId: body.previousAskId }),
    ...(body.expiresAt === undefined ? {} : { expiresAt: body.expiresAt }),
    ...(body.maxCustomChars === undefined ? {} : { maxCustomChars: body.maxCustomChars }),
  }
}
