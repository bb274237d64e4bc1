/**
 * The `extra` of an approval request: the fields of a tool's input that the card's action does not
 * show, so that no field that changes what is allowed can hide behind the ordinary case. Every key
 * stays; only long values are cut, each with a marker that says how much is missing, and the whole
 * text has a cap of its own, again with a marker.
 */

/** Longest string value kept whole in `extra`; longer ones are cut with {@link cutMarker}. */
export const EXTRA_VALUE_CHARS = 2_000

/** Longest `extra` text; past it the text is cut with {@link cutMarker}. */
export const EXTRA_CHARS = 20_000

/** The visible mark of a cut: how many characters are not shown. */
export function cutMarker(hidden: number): string {
  return `… [${hidden} more characters not shown]`
}

/** The entries of `input` whose keys are not in `shown` (own enumerable keys, input order), or {} for a non-object. */
export function leftoverFields(input: unknown, shown: readonly string[]): Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return {}
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (!shown.includes(key))
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * `fields` as the `extra` text: pretty JSON, long strings cut (every key stays visible), the whole cut
 * at {@link EXTRA_CHARS}; undefined when there is nothing to show.
 */
export function extraText(fields: Record<string, unknown>): string | undefined {
  if (Object.keys(fields).length === 0) return undefined
  const text = JSON.stringify(
    fields,
    (_key, value: unknown) =>
      typeof value === 'string' && value.length > EXTRA_VALUE_CHARS
        ? `${value.slice(0, EXTRA_VALUE_CHARS)}${cutMarker(value.length - EXTRA_VALUE_CHARS)}`
        : value,
    2,
  )
  return text.length > EXTRA_CHARS ? `${text.slice(0, EXTRA_CHARS)}\n${cutMarker(text.length - EXTRA_CHARS)}` : text
}
