// Renders the whole question window against a FakeBridge.
import { render } from '@testing-library/svelte'
import { userEvent } from '@testing-library/user-event'
import App from '../../renderer/src/App.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { loadSideViews } from '../../renderer/src/lib/side-views.svelte'
import type { InboxOptions } from '../../renderer/src/state/inbox-options'
import { InboxStore } from '../../renderer/src/state/inbox.svelte'
import type { Ask } from '../../shared/ask'
import { FakeBridge } from './fake-bridge'

/**
 * Renders the window on a snapshot of `pending`. Cards act at once (`armingMs: 0`) unless a test
 * passes `armingMs`: arming has its own tests (arming.test.ts); the others test what comes after.
 * `overRelay`: the App as the phone mounts it.
 */
export async function renderInbox(pending: Ask[], options: InboxOptions & { overRelay?: boolean } = {}) {
  i18n.lang = 'en'
  // As the window's main.ts does before the person can open History, Relay or Connect.
  await loadSideViews()
  const bridge = new FakeBridge()
  const { overRelay = false, ...inboxOptions } = options
  const store = new InboxStore(bridge, { storage: window.sessionStorage, armingMs: 0, ...inboxOptions })
  const view = render(App, { props: { store, overRelay } })
  await bridge.snapshot(pending)
  return { bridge, store, view, user: userEvent.setup() }
}
