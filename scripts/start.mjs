#!/usr/bin/env node
// `npm start`: runs the desktop app in development with electron-vite (`npm start -- --preview` runs
// the production build instead). Where no Electron binary exists (it is downloaded on first use, and
// these machines cannot reach the download) it says so in one line and exits 1, instead of letting
// `require('electron')` try the download.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const root = join(import.meta.dirname, '..')

/** The Electron executable, resolved the way node_modules/electron/index.js does, without downloading. */
export function electronBinary(env = process.env) {
  let dir
  try {
    dir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'))
  } catch {
    return undefined
  }
  const fallback = { darwin: 'Electron.app/Contents/MacOS/Electron', win32: 'electron.exe' }[process.platform] ?? 'electron'
  const pathFile = join(dir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : fallback
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative) : join(dir, 'dist', relative)
  return existsSync(binary) ? binary : undefined
}

if (!electronBinary()) {
  console.error(
    'Error: no Electron binary on this machine (it is downloaded on first use); run `npx ask-user serve` to use the companion in a browser instead',
  )
  process.exit(1)
}

const mode = process.argv.includes('--preview') ? 'preview' : 'dev'
const passThrough = process.argv.slice(2).filter((arg) => arg !== '--preview')
const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
const child = spawn(bin, [mode, ...passThrough], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
