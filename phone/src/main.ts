// The phone app's entry: pairing when this browser holds no phone record, else the inbox over the relay.
import '../../renderer/src/zod-config'
import { mount } from 'svelte'
import '../../renderer/src/app.css'
import { useMarkdownParser } from '../../renderer/src/lib/markdown-cache'
import PhoneApp from './PhoneApp.svelte'
import { takePairFragment } from './pairing/pair-fragment'

// Before anything else runs: a pairing offer (`#pair=…`) leaves the address bar and the history.
takePairFragment()

const target = document.getElementById('app')
if (!target) throw new Error('missing #app element')

const app = mount(PhoneApp, { target })
// Agents' Markdown (markdown-it and its tables) is a chunk of its own, fetched once the shell is up: the
// first screen lists the asks without it, and a card shows its text as it is until it arrives.
void import('../../shared/markdown/parse').then(useMarkdownParser)
export default app
