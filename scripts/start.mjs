#!/usr/bin/env node
// `npm start`: runs the desktop app in development with electron-vite (`npm start -- --preview` runs
// the production build instead; other arguments go to electron-vite, and those after `--` to the app).
// Electron's binary is downloaded on first use, by Electron's own installer (electron/install.cjs); if
// that fails, one line says why and how to use the companion without it, and the exit code is 1.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { ensureElectron } from './electron/install.cjs'

const root = join(import.meta.dirname, '..')

const electron = ensureElectron(root)
if (!electron.ok) {
  console.error(`${electron.message} Without the desktop app, run \`npx ask-user serve\` to answer in a browser.`)
  process.exit(1)
}

const mode = process.argv.includes('--preview') ? 'preview' : 'dev'
const passThrough = process.argv.slice(2).filter((arg) => arg !== '--preview')
// electron-vite's own script, run by this Node (no .cmd shim or shell on Windows). It finds Electron
// through path.txt only; ELECTRON_EXEC_PATH hands it the executable resolved above, so
// ELECTRON_OVERRIDE_DIST_PATH is honoured too.
const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
const child = spawn(process.execPath, [electronVite, mode, ...passThrough], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_EXEC_PATH: electron.executable },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
