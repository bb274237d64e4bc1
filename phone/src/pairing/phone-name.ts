// The name the desktop will show when the person confirms: a guess from the browser's user agent that
// the person can change ("Pixel 8", "iPhone"), never anything more identifying than the model.

/** Longest default name (the roster allows 100 characters; a model name is short). */
const MAX_DEFAULT = 40

/**
 * A default phone name from `userAgent`: the Android model (`Android 14; Pixel 8)` → `Pixel 8`), else
 * `iPhone` / `iPad`, else `Phone`. Control characters and anything past 40 characters are dropped.
 */
export function defaultPhoneName(userAgent: string): string {
  // The model is the part after the Android version, before `)`, without a ` Build/…` suffix.
  const android = /Android [^;)]*;([^;)]{1,80})\)/.exec(userAgent)
  const model = android?.[1]?.split(' Build/')[0]?.trim()
  if (model && model !== 'K' && !/^(?:wv|Mobile)$/i.test(model)) return clean(model)
  if (/iPhone/.test(userAgent)) return 'iPhone'
  if (/iPad/.test(userAgent)) return 'iPad'
  return 'Phone'
}

function clean(name: string): string {
  const printable = [...name].filter((char) => (char.codePointAt(0) ?? 0) >= 0x20 && char !== '\u007f').join('')
  return printable.slice(0, MAX_DEFAULT).trim() || 'Phone'
}
