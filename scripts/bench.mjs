#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --json [FILE]]`: builds what the bench needs (the app with
// electron-vite: out/renderer for the served page, out/main/cli.js for `ask-user`; then the bench
// itself with vite.bench.config.mts into out/bench) and runs it with plain Node.
// `--no-build` skips both builds (reuse out/ as it is). Not a test: never run in CI.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const args = process.argv.slice(2)
const skipBuild = args.includes('--no-build')
const passThrough = args.filter((a) => a !== '--no-build')

function step(label, command, commandArgs) {
  const t0 = Date.now()
  const run = spawnSync(command, commandArgs, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (run.status !== 0) {
    console.error(`Error: ${label} failed (exit ${run.status ?? run.signal})`)
    process.exit(1)
  }
  console.error(`bench: ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
}

if (!skipBuild) {
  step('built the app (electron-vite build)', bin('electron-vite'), ['build'])
  step('built the phone app (vite build -c vite.phone.config.mts)', bin('vite'), [
    'build',
    '-c',
    'vite.phone.config.mts',
    '--logLevel',
    'warn',
  ])
  step('built the bench (vite build --config vite.bench.config.mts)', bin('vite'), [
    'build',
    '--config',
    'vite.bench.config.mts',
  ])
}
const run = spawnSync(process.execPath, [join(root, 'out', 'bench', 'main.js'), ...passThrough], {
  cwd: root,
  stdio: 'inherit',
})
process.exit(run.status ?? 1)
