import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { pageCspPlugin } from './scripts/page-csp-plugin'

const root = (path: string): string => resolve(__dirname, path)

/**
 * One build for the three Electron targets. The main target also emits `cli.js`, the plain-Node
 * `ask-user` command, which shares the companion core with the desktop app but never imports electron.
 */
export default defineConfig({
  main: {
    build: {
      // `mcp` and `hook` are `ask-user mcp` / `ask-user hook` on their own, for their start-up
      // (bin/ask-user.js requires them directly; docs/performance.md "Start-up of spawned commands").
      lib: {
        entry: {
          index: root('electron/main/index.ts'),
          cli: root('cli/main.ts'),
          mcp: root('cli/mcp-main.ts'),
          hook: root('cli/hook-main.ts'),
          // The relay's question-opening worker thread, started by file beside whichever bundle runs
          // the companion core (relay/exchange/question-opener-in-worker.ts).
          'relay-opener-worker': root('relay/exchange/question-opener-worker.ts'),
        },
      },
      // Bundled rather than required from node_modules: loading zod's ~100 files and ws's one by one
      // was most of `ask-user ask`'s start-up time (docs/performance.md).
      externalizeDeps: { exclude: ['zod', 'ws', '@modelcontextprotocol/server'] },
    },
  },
  preload: {
    // A sandboxed preload can require only `electron` (and a few Node shims). It reaches no zod today
    // (preload-imports.test.ts); should a schema come back, it is bundled rather than required.
    build: { lib: { entry: root('electron/preload/index.ts') }, externalizeDeps: { exclude: ['zod'] } },
  },
  renderer: {
    root: root('renderer'),
    plugins: [svelte({ configFile: root('svelte.config.mjs') }), pageCspPlugin()],
    build: { rolldownOptions: { input: root('renderer/index.html') } },
  },
})
