/**
 * Characters that hide or reorder text, shown as visible markers that name the code point
 * (`⟨U+202E⟩`). Everywhere: the bidi embedding, override and isolate controls (U+202A–U+202E,
 * U+2066–U+2069); U+200B, U+2060, U+FEFF; tag characters (U+E0000–U+E007F) outside an emoji tag
 * sequence; variation selectors that do not directly follow a base character or come in a run of
 * more than one. In short fields (headers, option labels, agent names) also the bidi marks U+200E,
 * U+200F and U+061C, which longer right-to-left text needs. ZWJ and ZWNJ are never marked.
 */

/** A run of text as written, or one hidden character named by its code point (`U+202E`). */
export type TextSegment = { text: string } | { marker: string }

/** Which rule applies: `short` for headers, option labels and agent names; `long` for the rest. */
export type HiddenRule = 'short' | 'long'

const WAVING_BLACK_FLAG = 0x1f3f4
const CANCEL_TAG = 0xe007f

const isAlwaysHidden = (cp: number): boolean =>
  (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200b || cp === 0x2060 || cp === 0xfeff
const isBidiMark = (cp: number): boolean => cp === 0x200e || cp === 0x200f || cp === 0x061c
const isTag = (cp: number): boolean => cp >= 0xe0000 && cp <= 0xe007f
const isVariationSelector = (cp: number): boolean => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)
/** A character a variation selector may follow: visible, not a control, format, space or selector. */
const isBase = (ch: string): boolean => /^[\p{L}\p{N}\p{P}\p{S}\p{M}]$/u.test(ch)

/** The marker name of a code point: `U+` and at least four upper-case hex digits. */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
}

/** The marker as it is displayed: `⟨U+202E⟩`. */
export function markerText(name: string): string {
  return `⟨${name}⟩`
}

/**
 * Which code points of `chars` (one string per code point) are hidden characters under `rule`; the
 * result holds their indexes.
 */
function hiddenIndexes(chars: readonly string[], rule: HiddenRule): Set<number> {
  const hidden = new Set<number>()
  const cps = chars.map((ch) => ch.codePointAt(0) ?? 0)
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i] ?? 0
    if (isAlwaysHidden(cp) || (rule === 'short' && isBidiMark(cp))) hidden.add(i)
    else if (isTag(cp)) {
      // an emoji tag sequence: 🏴, tag characters U+E0020–U+E007E, then CANCEL TAG
      const start = i
      if (cps[i - 1] === WAVING_BLACK_FLAG && cp !== CANCEL_TAG) {
        let end = i
        while (end < cps.length && (cps[end] ?? 0) >= 0xe0020 && (cps[end] ?? 0) <= 0xe007e) end++
        if (end > start && cps[end] === CANCEL_TAG) {
          i = end // the whole sequence stays
          continue
        }
      }
      hidden.add(i)
    } else if (isVariationSelector(cp)) {
      let end = i
      while (end < cps.length && isVariationSelector(cps[end] ?? 0)) end++
      const previous = chars[i - 1]
      const follows = previous !== undefined && !hidden.has(i - 1) && isBase(previous)
      if (end - i > 1 || !follows) for (let j = i; j < end; j++) hidden.add(j)
      i = end - 1
    }
  }
  return hidden
}

/**
 * Splits agent text into runs and markers (see the module comment for the rule). Text without hidden
 * characters comes back as one segment (none when empty).
 */
export function segmentHidden(text: string, rule: HiddenRule): TextSegment[] {
  const chars = Array.from(text)
  const hidden = hiddenIndexes(chars, rule)
  if (hidden.size === 0) return text === '' ? [] : [{ text }]
  const out: TextSegment[] = []
  let run = ''
  chars.forEach((ch, i) => {
    if (!hidden.has(i)) {
      run += ch
      return
    }
    if (run !== '') out.push({ text: run })
    run = ''
    out.push({ marker: codePointName(ch.codePointAt(0) ?? 0) })
  })
  if (run !== '') out.push({ text: run })
  return out
}

/** The text with every marker shown as `⟨U+XXXX⟩` (for copies, titles and tests). */
export function withMarkers(text: string, rule: HiddenRule): string {
  return segmentHidden(text, rule)
    .map((segment) => ('marker' in segment ? markerText(segment.marker) : segment.text))
    .join('')
}

/** The text with the hidden characters removed (notification and tray text). */
export function withoutHidden(text: string, rule: HiddenRule): string {
  return segmentHidden(text, rule)
    .map((segment) => ('text' in segment ? segment.text : ''))
    .join('')
}
