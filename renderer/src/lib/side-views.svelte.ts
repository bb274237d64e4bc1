// The views beside the inbox (History, Relay with "Add a phone" and its QR code, Connect with every
// harness's set-up text) are a chunk of their own: the phone's first screen is the inbox, and these are
// about a tenth of what it would fetch. The window and the served page start loading them at once
// (renderer/src/main.ts), so they are there when the person first opens one; the phone loads them when
// the person first opens one (its service worker holds every chunk: a local read).
import type ConnectView from '../components/ConnectView.svelte'
import type HistoryView from '../components/HistoryView.svelte'
import type RelayView from '../components/RelayView.svelte'

/** The side views' components, once loaded. */
export interface SideViews {
  HistoryView: typeof HistoryView
  RelayView: typeof RelayView
  ConnectView: typeof ConnectView
}

/** The loaded views (`current` is undefined until {@link loadSideViews} resolved); the App reads it. */
export const sideViews: { current: SideViews | undefined } = $state({ current: undefined })

let loading: Promise<SideViews> | undefined

/** Loads the side views' chunk (once; later calls share the first load) and resolves with them. */
export function loadSideViews(): Promise<SideViews> {
  loading ??= Promise.all([
    import('../components/HistoryView.svelte'),
    import('../components/RelayView.svelte'),
    import('../components/ConnectView.svelte'),
  ]).then(([history, relay, connect]) => {
    const views = { HistoryView: history.default, RelayView: relay.default, ConnectView: connect.default }
    sideViews.current = views
    return views
  })
  return loading
}
