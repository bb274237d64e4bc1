// Setup of the component tests (vitest.config.mts): Testing Library's `waitFor` and `findBy…` give up
// after 1 s by default, which a busy machine can spend on one Svelte render in jsdom. They wait as
// long as every other helper wait instead (test/helpers/waits.ts).
// Cards parse Markdown from their first render, as in the window (renderer/src/main.ts hands the parser in).
import { configure } from '@testing-library/svelte'
import { provideMessages } from '../../renderer/src/i18n/i18n.svelte'
import { zh } from '../../renderer/src/i18n/messages-zh'
import { useMarkdownParser } from '../../renderer/src/lib/markdown-cache'
import * as markdownParser from '../../shared/markdown/parse'
import { WAIT_MS } from './waits'

configure({ asyncUtilTimeout: WAIT_MS })
useMarkdownParser(markdownParser)
// Both languages from the first render, as the window has them (renderer/src/main.ts).
provideMessages('zh', zh)

// jsdom has no media queries; every browser does. The window as jsdom lays it out is a wide one: no
// query matches (the phone-width rules of renderer/src/App.svelte are Playwright's, in test/e2e).
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList =>
    Object.assign(new EventTarget(), {
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
    }) as MediaQueryList
}
