import { BUCKETS } from '../nats/templates'

/**
 * Key names in the `inbox` bucket (RELAY.md §4.2): `q.<agent>.<askId>` (the agent's question),
 * `a.<agent>.<askId>` (the first device's answer, `create()` only) and `r.<agent>.<askId>` (the agent's
 * receipt). `<agent>` is the agent's credential name, which the server binds to what it may write, so
 * a key's agent token is who asked; `<askId>` is a random token.
 */

/** The bucket every question, answer and receipt lives in. */
export const INBOX_BUCKET = BUCKETS.inbox

/** What a key holds. */
export type InboxKind = 'q' | 'a' | 'r'

/** The key of `kind` for `agent`'s ask `askId`. */
export function inboxKey(kind: InboxKind, agent: string, askId: string): string {
  return `${kind}.${agent}.${askId}`
}

const KEY = /^([qar])\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16,64})$/

/** Splits an inbox key into its parts; `undefined` for anything else (ignored by both ends). */
export function parseInboxKey(key: string): { kind: InboxKind; agent: string; askId: string } | undefined {
  const match = KEY.exec(key)
  if (!match) return undefined
  return { kind: match[1] as InboxKind, agent: match[2]!, askId: match[3]! }
}
