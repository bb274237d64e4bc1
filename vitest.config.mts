import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { svelteTesting } from '@testing-library/svelte/vite'

/**
 * Two projects: `unit` (plain Node: shared, core, agent, cli, electron wiring with a mocked electron)
 * and `component` (Svelte components in jsdom). The time limits are generous on purpose: the suite must
 * pass on a busy machine (test/helpers/waits.ts); they only bound how long a real failure takes to show.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [svelte({ configFile: new URL('./svelte.config.mjs', import.meta.url).pathname }), svelteTesting()],
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['test/component/**/*.test.ts'],
          setupFiles: ['test/helpers/component-setup.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
})
