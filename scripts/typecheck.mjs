#!/usr/bin/env node
// Type-checks each layer with its own tsconfig, so a wrong import or a wrong global fails to compile:
// shared/ has no Node or DOM types, renderer/ no Node types, core/, electron/, agent/ and cli/ no DOM types.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const checks = [
  ['shared', bin('tsc'), ['--noEmit', '-p', 'shared/tsconfig.json']],
  ['core', bin('tsc'), ['--noEmit', '-p', 'core/tsconfig.json']],
  ['electron', bin('tsc'), ['--noEmit', '-p', 'electron/tsconfig.json']],
  ['agent', bin('tsc'), ['--noEmit', '-p', 'agent/tsconfig.json']],
  ['cli', bin('tsc'), ['--noEmit', '-p', 'cli/tsconfig.json']],
  ['tests and configs', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
  // The agent library and the upstream registration examples under upstream's strict options.
  ['agent under upstream options', bin('tsc'), ['--noEmit', '-p', 'test/upstream/tsconfig.json']],
  ['renderer', bin('svelte-check'), ['--tsconfig', './renderer/tsconfig.json', '--fail-on-warnings', '--output', 'human']],
]
let ok = true
for (const [layer, command, args] of checks) {
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (run.status !== 0) {
    ok = false
    console.error(`Error: type errors in ${layer}`)
  } else console.log(`typecheck ${layer}: ok`)
}
process.exit(ok ? 0 : 1)
