/**
 * True for an Enter that belongs to an input method (IME) composition and must not submit:
 * `isComposing`, or the legacy keyCode 229 some browsers send for the composition-ending key.
 */
export function isComposingKey(event: KeyboardEvent): boolean {
  return event.isComposing || event.keyCode === 229
}

/** The option index (0-based) a digit key 1–9 stands for, else undefined. Modified keys are ignored. */
export function digitIndex(event: KeyboardEvent): number | undefined {
  if (event.altKey || event.ctrlKey || event.metaKey) return undefined
  if (!/^[1-9]$/.test(event.key)) return undefined
  return Number(event.key) - 1
}

/** True when the key goes into a text field (digits and brackets must type there, not act). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target instanceof HTMLTextAreaElement) return true
  if (target instanceof HTMLInputElement) return !['radio', 'checkbox', 'button', 'submit'].includes(target.type)
  return target.isContentEditable
}

/** -1 / +1 for the "previous / next ask" shortcuts (Alt+ArrowUp/Down anywhere, [ and ] outside text fields). */
export function askStep(event: KeyboardEvent): -1 | 1 | undefined {
  if (event.altKey && !event.ctrlKey && !event.metaKey) {
    if (event.key === 'ArrowUp') return -1
    if (event.key === 'ArrowDown') return 1
  }
  if (event.altKey || event.ctrlKey || event.metaKey || isTextEntry(event.target)) return undefined
  if (event.key === '[') return -1
  if (event.key === ']') return 1
  return undefined
}
