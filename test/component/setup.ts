// Renders the whole question window against a FakeBridge.
import { render } from '@testing-library/svelte'
import { userEvent } from '@testing-library/user-event'
import App from '../../renderer/src/App.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import type { InboxOptions } from '../../renderer/src/state/inbox-options'
import { InboxStore } from '../../renderer/src/state/inbox.svelte'
import type { Ask } from '../../shared/ask'
import { FakeBridge } from './fake-bridge'

/**
 * Renders the window on a snapshot of `pending`. Cards act at once (`armingMs: 0`) unless a test
 * passes `armingMs`: arming has its own tests (arming.test.ts); the others test what comes after.
 */
export async function renderInbox(pending: Ask[], options: InboxOptions = {}) {
  i18n.lang = 'en'
  const bridge = new FakeBridge()
  const store = new InboxStore(bridge, { storage: window.sessionStorage, armingMs: 0, ...options })
  const view = render(App, { props: { store } })
  await bridge.snapshot(pending)
  return { bridge, store, view, user: userEvent.setup() }
}
