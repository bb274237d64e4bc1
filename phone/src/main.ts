// The phone app's entry: pairing when this browser holds no phone record, else the inbox over the relay.
// The interface (Svelte, the renderer's components) is a chunk of its own: the first screen is decided,
// and the relay dialled, while it loads.
import '../../renderer/src/zod-config'
import { mount } from 'svelte'
import '../../renderer/src/app.css'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { loadMarkdownWhenNeeded, useMarkdownParser } from '../../renderer/src/lib/markdown-cache'
import { takePairHash } from './pairing/pair-hash'
import { decideFirstScreen } from './shell/first-screen'

// Before anything else runs: a pairing offer (`#pair=…`) leaves the address bar and the history.
takePairHash()

const target = document.getElementById('app')
if (!target) throw new Error('missing #app element')

const first = decideFirstScreen()
const decided = first.then(
  () => undefined,
  () => undefined,
)
// Chinese messages come only to a phone that reads Chinese, before its first paint (no flash of English).
// The interface mounts once the first screen is decided: with a pairing, the relay is dialled by then,
// so the link's round trips overlap the mount and the first paint instead of waiting behind them (the
// stored record's reads are short tasks that a mount's long ones would hold back).
const app = Promise.all([import('./PhoneApp.svelte'), i18n.ready(), decided]).then(([{ default: PhoneApp }]) =>
  mount(PhoneApp, { target, props: { first } }),
)
// Agents' Markdown (markdown-it and its tables) is a chunk of its own too, loaded when a card first
// shows text that needs it (lib/markdown-cache.ts): the list never waits for it, plain asks never fetch
// it, and a card shows its text as it is until it arrives.
loadMarkdownWhenNeeded(() => import('../../shared/markdown/parse').then(useMarkdownParser))
// History, Relay and Connect (renderer/src/lib/side-views.svelte.ts) load when the person first opens one:
// the service worker has every chunk, so that is a local read, and the first screen never waits for them.
export default app
