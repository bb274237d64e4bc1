#!/usr/bin/env node
// `npm run dist` (after `npm run build`): packages the desktop app with electron-builder. The Electron it
// packs is the project's own, installed the same way as for `npm start` (electron/install.cjs, which
// honours ELECTRON_MIRROR and the cache), and handed over as electronDist, so electron-builder does not
// download Electron a second time. Arguments go to electron-builder (e.g. `npm run dist -- --dir`).
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { electronDistDir, electronPackageDir, ensureElectron } from './electron/install.cjs'
import { stageCli } from './stage-cli.cjs'

const root = join(import.meta.dirname, '..')

const electron = ensureElectron(root)
if (!electron.ok) {
  console.error(`${electron.message} electron-builder packs that Electron into every installer.`)
  process.exit(1)
}

// The packaged `ask-user` command beside the app (resources/cli), staged outside out/ because files
// that extraResources takes from inside out/ are left out of app.asar.
stageCli(root, join(root, '.dist-staging', 'cli'))

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
