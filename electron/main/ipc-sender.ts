// The one sender check of every IPC message the question window may send: from our window, from its main
// frame (no sub-frame), showing our page (content.ts `isAppUrl`). Everything else is refused with a reason.
import type * as Electron from 'electron'

/**
 * A check for events on `contents`: true for our window's main frame showing our page; otherwise calls
 * `refuse` with the reason (after `prefix`, which names the feature) and returns false.
 */
export function ipcSenderCheck(
  contents: Electron.WebContents,
  isAppUrl: (url: string) => boolean,
  refuse: (reason: string) => void,
  prefix = '',
): (event: Electron.IpcMainEvent) => boolean {
  return (event) => {
    const frame = event.senderFrame
    if (event.sender !== contents || !frame || frame !== contents.mainFrame) {
      refuse(`${prefix}sender is not the question window's main frame`)
      return false
    }
    if (!isAppUrl(frame.url)) {
      refuse(`${prefix}sender page is not the app (${frame.url})`)
      return false
    }
    return true
  }
}
