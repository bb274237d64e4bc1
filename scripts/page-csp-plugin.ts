import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { PAGE_FILES, pageCsp } from '../shared/csp'

/** What renderer/index.html holds where the policy goes. */
export const CSP_PLACEHOLDER = '%ASK_USER_PAGE_CSP%'

/**
 * The page's CSP per target, from shared/csp.ts. A build writes `index.html` with the Electron policy
 * (no loopback `ws:`: the window talks over IPC) and `web.html`, the same page with the browser policy
 * that `ask-user serve` serves. The dev server drops the meta tag: Electron's session header (with the
 * dev server's hot-reload socket) applies there.
 */
export function pageCspPlugin(): Plugin {
  let dev = false
  return {
    name: 'ask-user-page-csp',
    configResolved(config) {
      dev = config.command === 'serve'
    },
    transformIndexHtml(html) {
      if (dev) return html.replace(/(?<!\s)\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
      return html.replace(CSP_PLACEHOLDER, pageCsp('electron', 'meta'))
    },
    async writeBundle(options, bundle) {
      const page = bundle[PAGE_FILES.electron]
      if (page?.type !== 'asset' || options.dir === undefined) return
      const html = typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source)
      if (!html.includes(pageCsp('electron', 'meta'))) this.error('the built index.html has no Electron CSP to replace')
      await writeFile(
        join(options.dir, PAGE_FILES.web),
        html.replace(pageCsp('electron', 'meta'), pageCsp('web', 'meta')),
      )
    },
  }
}
