// Builds the benchmark (bench/*.ts, which imports the real core from core/) for plain Node:
// an SSR build, CommonJS output in out/bench, Node builtins and every package dependency external.
// Used by scripts/bench.mjs (`npm run bench`); the bench is not a test and never runs in CI.
import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'

const root = import.meta.dirname
const isExternal = (id: string): boolean =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  (!id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'))

export default defineConfig({
  root,
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: true,
    outDir: resolve(root, 'out/bench'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      input: {
        main: resolve(root, 'bench/main.ts'),
        'server-child': resolve(root, 'bench/server-child.ts'),
        // Beside main.js, where the relay's worker opener looks for it (relay/exchange/question-opener-in-worker.ts).
        'relay-opener-worker': resolve(root, 'relay/exchange/question-opener-worker.ts'),
      },
      external: isExternal,
      output: { format: 'cjs', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
})
