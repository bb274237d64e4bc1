// The seam where question envelopes are opened. The companion's bridge wants decryption off its event
// loop (issue 32). In Node, WebCrypto's HPKE, AES-GCM and Ed25519 primitives run on libuv's thread pool,
// but each call's argument checks, key objects and HKDF steps run on the loop, beside JSON, base64 and
// the schema checks (a CPU profile of the bench's relay rows, docs/performance.md). A bridge that must
// keep the loop free passes WorkerQuestionOpener.open (question-opener-in-worker.ts), which runs
// `openQuestion` on a worker thread.
import { openQuestion, type MemberKeys, type OpenedQuestion, type Roster } from '../crypto'

/** Opens one stored question for `device` (the contract and refusals of relay/crypto's `openQuestion`). */
export type QuestionOpener = (
  storedBytes: Uint8Array,
  options: { device: MemberKeys; roster: Roster; kvKey: string },
) => Promise<OpenedQuestion>

/** The default opener: on this thread (its crypto on the thread pool). */
export const openOnThisThread: QuestionOpener = (storedBytes, options) => openQuestion(storedBytes, options)
