#!/usr/bin/env node
// `npm run dist` (after `npm run build`): packages the desktop app with electron-builder. The Electron it
// packs is the project's own, installed the same way as for `npm start` (electron/install.cjs, which
// honours ELECTRON_MIRROR and the cache), and handed over as electronDist, so electron-builder does not
// download Electron a second time. Arguments go to electron-builder (e.g. `npm run dist -- --dir`).
import { spawnSync } from 'node:child_process'
import { cpSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { electronDistDir, electronPackageDir, ensureElectron } from './electron/install.cjs'

const root = join(import.meta.dirname, '..')

const electron = ensureElectron(root)
if (!electron.ok) {
  console.error(`${electron.message} electron-builder packs that Electron into every installer.`)
  process.exit(1)
}

// The packaged `ask-user` command: the CLI bundles, their entry and the page `ask-user serve` serves, beside the app.
const staging = join(root, '.dist-staging', 'cli')
rmSync(staging, { recursive: true, force: true })
cpSync(join(root, 'out', 'main'), join(staging, 'main'), { recursive: true, filter: (path) => !/[\\/]index\.js$|\.png$/.test(path) })
cpSync(join(root, 'out', 'renderer'), join(staging, 'renderer'), { recursive: true })
// The same entry as the npm install's (bin/ask-user.js, with its compile cache), which the launcher in
// resources/bin runs: `ask-user mcp` and `ask-user hook` load their own bundles there too.
for (const file of ['ask-user.js', 'compile-cache.js']) cpSync(join(root, 'bin', file), join(staging, 'bin', file))

// Whether the macOS app is signed with a Developer ID: a CSC_LINK certificate, and not the ad-hoc
// identity (`-c.mac.identity=-`) the release workflow passes without one. The app reads it
// (electron/main/unsigned-notice.ts): macOS drops an unsigned app's notifications without an event.
const adHoc = process.argv.slice(2).some((arg) => /^-c\.mac\.identity=-$/.test(arg))
const macDeveloperId = process.platform === 'darwin' && Boolean(process.env.CSC_LINK) && !adHoc
writeFileSync(join(root, '.dist-staging', 'signing.json'), `${JSON.stringify({ macDeveloperId })}\n`)

// electron-builder's own script, run by this Node (no .cmd shim or shell on Windows).
const electronBuilder = join(root, 'node_modules', 'electron-builder', 'cli.js')
const args = [`-c.electronDist=${electronDistDir(electronPackageDir(root))}`, ...process.argv.slice(2)]
const run = spawnSync(process.execPath, [electronBuilder, ...args], { cwd: root, stdio: 'inherit' })
if (run.error) console.error(`Error: electron-builder could not start: ${run.error.message}`)
process.exit(run.status ?? 1)
