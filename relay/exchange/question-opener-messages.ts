// The messages between the companion's thread and the question-opening worker (question-opener-in-worker.ts and
// question-opener-worker.ts). They cross by structured clone: the device's keys travel as WebCrypto
// CryptoKey objects (cloned, never exported, so no seed or private key bytes are ever serialized), the
// stored bytes and the opened body are transferred, not copied.
import type { MemberKeys, OpenedQuestion, RelayCryptoCode, Roster } from '../crypto'

/** What the worker is told: the device's keys and the roster (each once, again on change), or one question. */
export type OpenerRequest =
  | { readonly type: 'device'; readonly device: MemberKeys }
  | { readonly type: 'roster'; readonly roster: Roster }
  | { readonly type: 'open'; readonly id: number; readonly storedBytes: Uint8Array; readonly kvKey: string }

/** The worker's answer to one `open`: the opened question, relay/crypto's refusal, or an unexpected failure. */
export type OpenerReply =
  | { readonly id: number; readonly outcome: 'opened'; readonly opened: OpenedQuestion }
  | { readonly id: number; readonly outcome: 'refused'; readonly code: RelayCryptoCode; readonly message: string }
  | { readonly id: number; readonly outcome: 'failed' }
