import { linkHost, safeLinkUrl } from '../../../shared/markdown/url-gate'
import type { CompanionBridge } from '../../../shared/bridge'

/** A link the person clicked, waiting for their confirmation in the page (the browser build). */
export interface LinkRequest {
  url: string
  host: string
}

/**
 * Opening links from agent text. Every URL is checked again (absolute http/https only). In Electron
 * the bridge's `openLink` hands it to main, which checks it once more and asks with a native dialog;
 * in the browser (`ask-user serve`) the page asks itself ({@link LinkConfirm}), then opens a new tab
 * with `noopener`. Nothing ever navigates this window.
 */
class Links {
  /** The link awaiting confirmation in the page, if any. */
  pending: LinkRequest | undefined = $state()
  #bridge: Pick<CompanionBridge, 'openLink'> = {}

  /** The window's bridge: when it has `openLink` (Electron), main asks the person instead of the page. */
  use(bridge: Pick<CompanionBridge, 'openLink'>): void {
    this.#bridge = bridge
  }

  /** A click on a link: refused silently unless the URL passes the gate. */
  request(raw: string): void {
    const url = safeLinkUrl(raw)
    if (url === undefined) return
    const bridge = this.#bridge
    if (bridge.openLink) bridge.openLink(url)
    else this.pending = { url, host: linkHost(url) }
  }

  /** The person confirmed the pending link: opened in a new tab, with no way back to this page. */
  confirm(): void {
    const pending = this.pending
    this.pending = undefined
    if (pending === undefined || safeLinkUrl(pending.url) === undefined) return
    window.open(pending.url, '_blank', 'noopener,noreferrer')
  }

  /** The person declined. */
  cancel(): void {
    this.pending = undefined
  }
}

/** The page's one link opener. */
export const links = new Links()
