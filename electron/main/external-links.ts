import type * as Electron from 'electron'
import { linkHost, safeLinkUrl } from '../../shared/markdown/url-gate'
import type { Strings } from './strings'

/** What opening a link needs: the window the dialog belongs to, a native dialog, the shell. */
export interface ExternalLinkOptions {
  window: Electron.BrowserWindow
  dialog: Pick<Electron.Dialog, 'showMessageBox'>
  shell: Pick<Electron.Shell, 'openExternal'>
  strings: () => Strings
  warn: (message: string) => void
}

/**
 * Returns the `openLink` of the IPC hub: checks the URL once more (absolute http/https only), asks the
 * person in a native message box that shows the full URL and its host in punycode (so a look-alike
 * host reads as what it is), and only on "Open" hands it to `shell.openExternal`. A compromised
 * renderer can send any URL, but cannot skip the gate or the question: both live here, in main.
 */
export function externalLinkOpener(options: ExternalLinkOptions): (url: string) => void {
  return (raw) => {
    const url = safeLinkUrl(raw)
    if (url === undefined) return options.warn(`links: refused a URL that is not absolute http or https`)
    const strings = options.strings()
    void options.dialog
      .showMessageBox(options.window, {
        type: 'question',
        message: strings.openLinkMessage(linkHost(url)),
        detail: `${url}\n\n${strings.openLinkDetail}`,
        buttons: [strings.openLinkConfirm, strings.cancel],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      })
      .then(({ response }) => (response === 0 ? options.shell.openExternal(url) : undefined))
      .catch((error: unknown) => options.warn(`links: could not open ${url}: ${String(error)}`))
  }
}
