import './zod-config'
import { mount } from 'svelte'
import './app.css'
import App from './App.svelte'
import { getBridge } from './bridge'
import { links } from './lib/links.svelte'
import { clock } from './state/clock.svelte'
import { InboxStore } from './state/inbox.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('missing #app element')

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

clock.start()
links.use(getBridge())
const store = new InboxStore(getBridge(), { storage: sessionStore() })
export default mount(App, { target, props: { store } })
