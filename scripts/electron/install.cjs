// Finds the Electron executable of a project and, where it is missing, installs it with Electron's own
// installer, as `require('electron')` would on first use: the same download, the same cache, the same
// environment (ELECTRON_MIRROR and the other @electron/get variables, electron_config_cache,
// electron_use_remote_checksums, ELECTRON_OVERRIDE_DIST_PATH). `npm start`, `npm run dist` and the
// Playwright `_electron` spec all come through here.
// CommonJS, so that the ESM scripts and the Playwright spec (which Playwright compiles to CommonJS) can
// both load it.
'use strict'
const { spawnSync } = require('node:child_process')
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs')
const { createRequire } = require('node:module')
const { tmpdir } = require('node:os')
const { dirname, join } = require('node:path')

/** Where the executable sits inside an unpacked Electron, per OS (as install.js writes path.txt). */
const EXECUTABLE = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  mas: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
}

/** The folder of the project's `electron` package, or undefined when it is not installed. */
function electronPackageDir(root) {
  try {
    return dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'))
  } catch {
    return undefined
  }
}

/** The Electron version the project's `electron` package installs. */
function electronVersion(packageDir) {
  return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version
}

/**
 * The Electron executable, resolved the way node_modules/electron/index.js does (path.txt, or the
 * platform's usual name, under `ELECTRON_OVERRIDE_DIST_PATH` or the package's dist/), without
 * downloading anything. Returns the path whether or not it exists.
 */
function electronExecutablePath(packageDir, env = process.env, platform = process.platform) {
  const pathFile = join(packageDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : (EXECUTABLE[platform] ?? 'electron')
  return env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    : join(packageDir, 'dist', relative)
}

/** The folder of an unpacked Electron that holds `executable` (what electron-builder takes as electronDist). */
function electronDistDir(packageDir, env = process.env) {
  return env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDir, 'dist')
}

/**
 * Makes sure the project's Electron executable exists, running Electron's installer when it does not.
 * The installer's own output (and its progress bar, on a terminal) goes to this process's stderr.
 * Resolves `{ ok: true, executable, installed }` (`installed` = it was downloaded just now), or
 * `{ ok: false, message }` with one line that says why and what to do instead.
 */
function ensureElectron(root, { env = process.env, log = (line) => console.error(line) } = {}) {
  const packageDir = electronPackageDir(root)
  if (!packageDir) return failure('the `electron` package is not installed; run `npm install` first')
  const executable = electronExecutablePath(packageDir, env)
  if (existsSync(executable)) return { ok: true, executable, installed: false }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    return failure(
      `ELECTRON_OVERRIDE_DIST_PATH is set, but ${executable} does not exist; point it at an unpacked Electron or unset it`,
    )
  }
  const version = electronVersion(packageDir)
  log(`Downloading Electron ${version} (once; it is kept in ${join(packageDir, 'dist')})…`)
  const cause = runInstaller(packageDir, env)
  if (cause === undefined && existsSync(electronExecutablePath(packageDir, env))) {
    log(`Electron ${version} installed.`)
    return { ok: true, executable: electronExecutablePath(packageDir, env), installed: true }
  }
  return failure(
    `Electron ${version} could not be downloaded (${cause ?? 'the installer finished without an executable'})${hint(cause)}`,
  )
}

/** Runs install.js through installer-child.cjs; returns the one-line cause of a failure, or undefined. */
function runInstaller(packageDir, env) {
  const scratch = mkdtempSync(join(tmpdir(), 'ask-user-electron-install-'))
  const reportFile = join(scratch, 'report.txt')
  try {
    const run = spawnSync(
      process.execPath,
      [join(__dirname, 'installer-child.cjs'), join(packageDir, 'install.js'), reportFile],
      {
        env,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    )
    if (run.error) return run.error.message
    if (run.status === 0) return undefined
    return existsSync(reportFile)
      ? readFileSync(reportFile, 'utf8')
      : `the installer exited with ${run.status ?? run.signal}`
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** What to do about a cause, beyond the fallback every failure gets. */
function hint(cause = '') {
  if (/ERR_REQUIRE_ESM|require\(\) of ES Module/.test(cause))
    return "; Electron's installer needs Node.js 20.19 or 22.12 or later"
  if (/failed to read archive|invalid Zip/i.test(cause))
    return '; delete that damaged download from the cache and try again'
  if (/checksum/i.test(cause)) return '; the file does not match its published checksum: check ELECTRON_MIRROR'
  return '; check the network, or set ELECTRON_MIRROR to a reachable mirror'
}

function failure(reason) {
  return { ok: false, message: `Error: ${reason}.` }
}

exports.electronPackageDir = electronPackageDir
exports.electronVersion = electronVersion
exports.electronExecutablePath = electronExecutablePath
exports.electronDistDir = electronDistDir
exports.ensureElectron = ensureElectron
