import { resolve } from 'node:path'
import { defineConfig } from 'vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { PHONE_CSP_PLACEHOLDER, phoneCsp } from './phone/csp'

const root = (path: string): string => resolve(import.meta.dirname, path)

/**
 * The phone app (issue "Answer from the phone"): static files in out/phone, built from the window's
 * Svelte code, deployable to any HTTPS origin (`ask-user relay serve-app DIR`, the project's Pages site).
 */
export default defineConfig({
  root: root('phone'),
  base: './',
  plugins: [
    svelte({ configFile: root('svelte.config.mjs') }),
    { name: 'ask-user-phone-csp', transformIndexHtml: (html) => html.replace(PHONE_CSP_PLACEHOLDER, phoneCsp('meta')) },
  ],
  build: { outDir: root('out/phone'), emptyOutDir: true },
})
