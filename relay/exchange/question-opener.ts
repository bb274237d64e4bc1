// The seam where question envelopes are opened. The companion's bridge wants decryption off its event
// loop (issue 32); in Node, WebCrypto's HPKE, AES-GCM and Ed25519 work already runs on libuv's thread
// pool, so what stays on the loop per question is JSON parsing, base64 and the schema checks. A bridge
// that measures those as too slow passes an opener that runs `openQuestion` in a worker thread.
import { openQuestion, type MemberKeys, type OpenedQuestion, type Roster } from '../crypto'

/** Opens one stored question for `device` (the contract and refusals of relay/crypto's `openQuestion`). */
export type QuestionOpener = (
  storedBytes: Uint8Array,
  options: { device: MemberKeys; roster: Roster; kvKey: string },
) => Promise<OpenedQuestion>

/** The default opener: on this thread (its crypto on the thread pool). */
export const openOnThisThread: QuestionOpener = (storedBytes, options) => openQuestion(storedBytes, options)
