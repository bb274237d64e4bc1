#!/usr/bin/env node
// Type-checks each layer with its own tsconfig, so a wrong import or a wrong global fails to compile:
// shared/ and integrations/ have no Node or DOM types, renderer/ no Node types, core/, electron/, agent/ and cli/ no DOM types.
import { join } from 'node:path'
import { packageBin } from './package-bin.mjs'
import { runAtOnce } from './run-at-once.mjs'

const root = join(import.meta.dirname, '..')
const tsc = packageBin(root, 'typescript', 'tsc')
const svelteCheck = packageBin(root, 'svelte-check')
const checks = [
  ['shared', tsc, ['--noEmit', '-p', 'shared/tsconfig.json']],
  ['integrations', tsc, ['--noEmit', '-p', 'integrations/tsconfig.json']],
  ['core', tsc, ['--noEmit', '-p', 'core/tsconfig.json']],
  ['electron', tsc, ['--noEmit', '-p', 'electron/tsconfig.json']],
  ['agent', tsc, ['--noEmit', '-p', 'agent/tsconfig.json']],
  ['cli', tsc, ['--noEmit', '-p', 'cli/tsconfig.json']],
  ['relay', tsc, ['--noEmit', '-p', 'relay/tsconfig.json']],
  ['tests and configs', tsc, ['--noEmit', '-p', 'tsconfig.json']],
  // The agent library and the upstream registration examples under upstream's strict options.
  ['agent under upstream options', tsc, ['--noEmit', '-p', 'test/upstream/tsconfig.json']],
  ['renderer', svelteCheck, ['--tsconfig', './renderer/tsconfig.json', '--fail-on-warnings', '--output', 'human']],
  // The phone app: browser only (no Node types), so relay code it imports must run in a browser too.
  ['phone', svelteCheck, ['--tsconfig', './phone/tsconfig.json', '--fail-on-warnings', '--output', 'human']],
]
// Each tool's own script, run by this Node: the same on every OS (no .cmd shims on Windows). The checks
// are independent, so they run side by side; each one's output is printed whole, in this order.
const steps = checks.map(([layer, script, args]) => ({
  title: layer,
  command: process.execPath,
  args: [script, ...args],
  cwd: root,
}))
const results = await runAtOnce(steps, ({ title, ok, output }) => {
  if (ok) console.log(`typecheck ${title}: ok`)
  else {
    process.stdout.write(output)
    console.error(`Error: type errors in ${title}`)
  }
})
process.exit(results.every((result) => result.ok) ? 0 : 1)
