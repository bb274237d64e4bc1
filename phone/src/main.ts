// The phone app's entry: pairing when this browser holds no phone record, else the inbox over the relay.
import '../../renderer/src/zod-config'
import { mount } from 'svelte'
import '../../renderer/src/app.css'
import PhoneApp from './PhoneApp.svelte'
import { takePairFragment } from './pairing/pair-fragment'

// Before anything else runs: a pairing offer (`#pair=…`) leaves the address bar and the history.
takePairFragment()

const target = document.getElementById('app')
if (!target) throw new Error('missing #app element')

export default mount(PhoneApp, { target })
