#!/usr/bin/env node
// `npm test`: every check the project has, in order, then one closing line `N passed, N failed`
// with the totals of every test runner (vitest and Playwright). Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium as playwrightChromium } from '@playwright/test'
import { chromiumPath } from './chromium-path.mjs'
import { packageBin } from './package-bin.mjs'
import { runAtOnce } from './run-at-once.mjs'
import { closeRunTemp, openRunTemp } from './run-temp.mjs'

const root = join(import.meta.dirname, '..')
const results = join(root, 'test-results')
/** A dev tool run by this Node from its own script: the same on every OS (no .cmd shims on Windows). */
const tool = (pkg, name) => [process.execPath, [packageBin(root, pkg, name)]]

// Debian's Chromium here (or CHROMIUM_PATH); elsewhere the one `npx playwright install chromium` fetched.
const ownChromium = (() => {
  try {
    const path = playwrightChromium.executablePath()
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
})()
const chromium = chromiumPath() ?? ownChromium
if (!chromium) {
  console.error(
    "Error: no Chromium found for the browser tests; install Debian's `chromium` package (apt-get install -y chromium) " +
      'or run `npx playwright install chromium` where the internet is reachable, or set CHROMIUM_PATH.',
  )
  process.exit(1)
}

/** Runs one stage with inherited output; returns true when it exited 0. */
function stage(title, command, args, env = {}) {
  console.log(`\n=== ${title} ===`)
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  if (run.error) console.error(`Error: ${title} could not start: ${run.error.message}`)
  return run.status === 0
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

// The test runners get a temp folder of this run, removed at the end, and what a test left there is named.
const runTemp = openRunTemp(tmpdir())
const testEnv = runTemp.env

const withArgs = ([command, args], more) => [command, [...args, ...more]]
// The checks before the tests are independent of each other (the audit reads the build, so it comes
// after): they run side by side, each one's output printed whole and in this order.
const gates = [
  ['lint', ...withArgs(tool('eslint'), ['.', '--max-warnings', '0'])],
  ['format', ...withArgs(tool('prettier'), ['--check', '.'])],
  ['typecheck', process.execPath, [join(root, 'scripts', 'typecheck.mjs')]],
  ['build', ...withArgs(tool('electron-vite'), ['build'])],
  ['phone app build', ...withArgs(tool('vite'), ['build', '-c', 'vite.phone.config.mts', '--logLevel', 'warn'])],
]
const gateResults = await runAtOnce(
  gates.map(([title, command, args]) => ({ title, command, args, cwd: root })),
  ({ title, ok, output }) => {
    console.log(`\n=== ${title} ===`)
    process.stdout.write(output)
    if (!ok) console.error(`Error: ${title} failed`)
  },
)
let gatesOk = gateResults.every((result) => result.ok)
if (existsSync(join(root, 'scripts', 'electron-audit.mjs'))) {
  const title = 'electron security audit'
  if (!stage(title, process.execPath, [join(root, 'scripts', 'electron-audit.mjs')])) {
    gatesOk = false
    console.error(`Error: ${title} failed`)
  }
}

let passed = 0
let failed = 0
let skipped = 0

const vitestJson = join(results, 'vitest.json')
const vitestOk = stage(
  'unit and component tests (vitest)',
  ...withArgs(tool('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]),
  testEnv,
)
const vitest = readJson(vitestJson)
if (vitest) {
  passed += vitest.numPassedTests ?? 0
  failed += vitest.numFailedTests ?? 0
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0)
}
if (!vitestOk && (!vitest || (vitest.numFailedTests ?? 0) === 0)) failed += 1 // a crash outside any test

const playwrightJson = join(results, 'playwright.json')
const playwrightOk = stage(
  'browser tests (Playwright, ' + chromium + ')',
  ...withArgs(tool('@playwright/test', 'playwright'), ['test']),
  {
    ...testEnv,
    PW_JSON_OUTPUT: playwrightJson,
  },
)
const playwright = readJson(playwrightJson)
if (playwright?.stats) {
  passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0)
  failed += playwright.stats.unexpected ?? 0
  skipped += playwright.stats.skipped ?? 0
}
if (!playwrightOk && (playwright?.stats?.unexpected ?? 0) === 0) failed += 1 // a crash outside any test

const left = closeRunTemp(runTemp.dir)
if (left.length > 0)
  console.log(`\nNote: the tests left ${left.length} entries in their temp folder (now removed): ${left.join(', ')}`)

const ok = gatesOk && vitestOk && playwrightOk && failed === 0
if (!gatesOk) console.log('\nlint, format, typecheck, build or the security audit failed (see above)')
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(ok ? 0 : 1)
