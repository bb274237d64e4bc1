import './zod-config'
import { mount } from 'svelte'
import './app.css'
import * as markdownParser from '../../shared/markdown/parse'
import App from './App.svelte'
import { getBridge } from './bridge'
import { BrowserAlerts, pageAlertHost } from './lib/browser-alerts.svelte'
import { links } from './lib/links.svelte'
import { provideMessages } from './i18n/i18n.svelte'
import { zh } from './i18n/messages-zh'
import { useMarkdownParser } from './lib/markdown-cache'
import { loadSideViews } from './lib/side-views.svelte'
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

// The window parses Markdown from its first paint (the phone loads the parser later: phone/src/main.ts).
useMarkdownParser(markdownParser)
// The window speaks either language from its first paint (the phone loads Chinese only when it is read).
provideMessages('zh', zh)
// History, Relay and Connect are a chunk of their own (for the phone's sake); the window loads them now.
void loadSideViews()
clock.start()
// The page's one bridge has three users: the store (every frame and every send), `links` (opening a
// link from agent text goes through main in Electron) and, in the served page only, the browser alerts
// (the desktop has native notifications). Components never see it.
const bridge = getBridge()
links.use(bridge)
const store = new InboxStore(bridge, { storage: sessionStore() })
const alerts = window.companion ? undefined : new BrowserAlerts(pageAlertHost())
alerts?.listen(bridge, (askId) => store.focusAsk(askId))
export default mount(App, {
  target,
  props: {
    store,
    desktop: window.companion !== undefined,
    phonePairing: window.companion?.phonePairing,
    ...(alerts ? { alerts } : {}),
  },
})
