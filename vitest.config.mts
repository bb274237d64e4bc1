import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { svelteTesting } from '@testing-library/svelte/vite'

/**
 * Two projects: `unit` (plain Node: shared, core, agent, cli, electron wiring with a mocked electron)
 * and `component` (Svelte components in jsdom). The time limits are generous on purpose: the suite must
 * pass on a busy machine (test/helpers/waits.ts); they only bound how long a real failure takes to show.
 * At least two files run at once, even on two cores (vitest's default there is one): most files spend
 * their time waiting on what they spawned (servers, CLIs, a browser, nats-server), and two workers
 * overlap those waits. Files never share users, ports, folders or namespaces (test/helpers).
 */
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
