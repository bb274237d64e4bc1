import { z } from 'zod'

/**
 * Safety caps the companion enforces on top of the upstream contract (which has none).
 * Every overflow is refused with `LIMIT_EXCEEDED` and a message naming the cap; nothing crashes.
 */
export const LimitsSchema = z.object({
  /** Largest WebSocket frame accepted, in bytes; a larger frame closes the connection with 1009. */
  frameBytes: z.number().int().min(1024).default(1024 * 1024),
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
})

/** The default caps (docs/protocol.md, "Limits"). */
export const DEFAULT_LIMITS: Limits = Object.freeze(LimitsSchema.parse({}))
