import type { Ask } from '../shared/ask'

/**
 * Each registered ask's JSON, made once (asks are not changed after the registry mints them), kept on
 * the ask itself under a symbol: not enumerable, so neither JSON, structured clone nor a deep equality
 * sees it, and it goes when the ask goes.
 */
const JSON_TEXT = Symbol('ask JSON')
type WithJson = Ask & { [JSON_TEXT]?: string }

/**
 * `JSON.stringify(ask)`, computed once per ask and shared by everything that sends or stores it
 * (`ask/added` to every window, snapshot chunks, the history line): an ask is serialized once,
 * not once per use.
 */
export function askJson(ask: Ask): string {
  const cached = (ask as WithJson)[JSON_TEXT]
  if (cached !== undefined) return cached
  const json = JSON.stringify(ask)
  Object.defineProperty(ask, JSON_TEXT, { value: json, enumerable: false })
  return json
}

/**
 * The JSON of `{...ask, ...extra}` without serializing the ask again: the ask's cached text with
 * `extra`'s members appended (the same text `JSON.stringify` gives, since an ask's own keys come
 * first and `extra` names none of them).
 */
export function askJsonWith(ask: Ask, extra: Record<string, unknown>): string {
  const tail = JSON.stringify(extra)
  if (tail === '{}') return askJson(ask)
  return `${askJson(ask).slice(0, -1)},${tail.slice(1)}`
}
