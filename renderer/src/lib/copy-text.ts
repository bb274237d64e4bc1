/**
 * Copies text to the clipboard: the async Clipboard API where the page may use it (the browser tab
 * served over 127.0.0.1), else a selected off-screen textarea and `copy` (the desktop window, whose
 * session grants no permissions). Resolves false when neither worked.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return copyBySelection(text)
  }
}

function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.left = '-9999px'
  document.body.append(area)
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : undefined
  area.select()
  let ok: boolean
  try {
    ok = document.execCommand('copy')
  } catch {
    ok = false
  }
  area.remove()
  previous?.focus()
  return ok
}
