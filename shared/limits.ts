import { z } from 'zod'

/**
 * Safety caps the companion enforces on top of the upstream contract (which has none).
 * Every overflow is refused with `LIMIT_EXCEEDED` and a message naming the cap; nothing crashes.
 */
export const LimitsSchema = z.object({
  /** Largest WebSocket frame accepted, in bytes; a larger frame closes the connection with 1009. */
  frameBytes: z
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Questions in one ask. */
  questionsPerAsk: z.number().int().min(1).default(50),
  /** Options in one question. */
  optionsPerQuestion: z.number().int().min(1).default(50),
  /** Characters in any single text field (id, question, header, detail, label, description, custom, title). */
  textChars: z.number().int().min(1).default(20_000),
  /** Asks pending at once on one agent connection. */
  pendingPerConnection: z.number().int().min(1).default(64),
  /** Asks pending at once in the whole companion, over every connection (without it, 1,024 connections × 64 would allow 65,536). */
  pendingTotal: z.number().int().min(1).default(16_384),
  /** Agent and window connections open at once. */
  connections: z.number().int().min(1).default(1024),
  /**
   * Bytes the history may hold, on disk and in memory: the newest entries within half of it are kept,
   * and the file is compacted to them before an append would take it past the whole.
   */
  historyBytes: z
    .number()
    .int()
    .min(4096)
    .max(1024 * 1024 * 1024)
    .default(64 * 1024 * 1024),
  /** Largest history entry, in bytes; a longer one is kept with its texts cut and `truncated: true`. */
  historyEntryBytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024)
    .default(16 * 1024),
  /** Largest `history` reply to a window, in bytes (at least one entry); older entries are paged with `before`. */
  historyPageBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(1024 * 1024),
  /** Bytes queued unread for all windows together; past it, the window with the most queued is disconnected. */
  windowQueueBytes: z
    .number()
    .int()
    .min(1024)
    .max(4 * 1024 * 1024 * 1024)
    .default(256 * 1024 * 1024),
})
export type Limits = z.infer<typeof LimitsSchema>

/**
 * No caps at all (upstream's contract): for the agent side when it talks to a companion, which owns
 * the caps as settings and answers `LIMIT_EXCEEDED` itself.
 */
export const UNCAPPED_LIMITS: Limits = Object.freeze({
  frameBytes: Number.MAX_SAFE_INTEGER,
  questionsPerAsk: Number.MAX_SAFE_INTEGER,
  optionsPerQuestion: Number.MAX_SAFE_INTEGER,
  textChars: Number.MAX_SAFE_INTEGER,
  pendingPerConnection: Number.MAX_SAFE_INTEGER,
  pendingTotal: Number.MAX_SAFE_INTEGER,
  connections: Number.MAX_SAFE_INTEGER,
  historyBytes: Number.MAX_SAFE_INTEGER,
  historyEntryBytes: Number.MAX_SAFE_INTEGER,
  historyPageBytes: Number.MAX_SAFE_INTEGER,
  windowQueueBytes: Number.MAX_SAFE_INTEGER,
})

/** The default caps (docs/protocol.md, "Limits"). */
export const DEFAULT_LIMITS: Limits = Object.freeze(LimitsSchema.parse({}))
