'use strict'
// A V8 code cache for the `ask-user` bundles (out/main/*.js): what a run compiled, the next run of the
// same build reads back instead of parsing and compiling again. Node 22.1+ has this built in
// (module.enableCompileCache); on older Node this file keeps it by hand, as v8-compile-cache does.
// The cache lives in a folder only this user may write (V8 trusts what it reads there): ask-user-companion
// in the user's cache folder. ASK_USER_COMPILE_CACHE=0 or NODE_DISABLE_COMPILE_CACHE=1 turns it off.
// Measured in docs/performance.md, "Start-up of spawned commands".
// It writes files itself (it runs before any bundle, so it cannot use core/private-files.ts) with the
// same rules: the folder's owner before its mode, new temp files with O_EXCL | O_NOFOLLOW, a rename
// into place, and it only ever unlinks (never follows) what it clears.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const vm = require('node:vm')
const Module = require('node:module')

/** The most cache files kept: a new build leaves new names, so the folder is emptied past this. */
const MOST_FILES = 200

/** The user's cache folder for ask-user, by each platform's convention. */
const cacheFolder = (env) => {
  const home = os.homedir()
  const base =
    process.platform === 'win32'
      ? env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Caches')
        : env.XDG_CACHE_HOME || path.join(home, '.cache')
  return path.join(base, 'ask-user-companion', `v8-${process.version}-${process.arch}`)
}

/** Whether `dir` is a folder (not a link) of this user (checked first) that only this user can write. */
const ownFolder = (dir) => {
  const stat = fs.lstatSync(dir)
  if (!stat.isDirectory()) return false
  if (process.platform === 'win32') return true
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0
}

/** Open flags of a new temp file: it must not exist yet, and a link planted at its name is not followed. */
const CREATE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0)

/** `dir`, made if missing, when it and its parent (ours too) only this user can write; else undefined. */
const privateFolder = (dir) => {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    return ownFolder(path.dirname(dir)) && ownFolder(dir) ? dir : undefined
  } catch {
    return undefined
  }
}

/** A short stable name for a bundle file as it is now (path, size, change time). */
const cacheName = (filename) => {
  const stat = fs.statSync(filename)
  let hash = 0x811c9dc5
  for (const char of `${filename}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}`)
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0
  return `${path.basename(filename, '.js')}-${hash.toString(16)}.v8`
}

/** Compiles `content` as the CommonJS module `mod` with `cachedData` when V8 accepts it; returns its exports' result. */
const compileCached = (mod, content, filename, cacheFile, fresh) => {
  let cachedData
  try {
    cachedData = fs.readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  const script = new vm.Script(Module.wrap(content), { filename, cachedData })
  if (cachedData === undefined || script.cachedDataRejected) fresh.push({ cacheFile, script })
  const require = (id) => mod.require(id)
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options)
  require.main = process.mainModule
  require.extensions = Module._extensions
  require.cache = Module._cache
  return script
    .runInThisContext({ displayErrors: true })
    .call(mod.exports, mod.exports, require, mod, filename, path.dirname(filename))
}

/** Writes the code V8 compiled in this run for the bundles that had no (usable) cache; never throws. */
const save = (dir, fresh) => {
  try {
    if (fs.readdirSync(dir).length + fresh.length > MOST_FILES) {
      for (const name of fs.readdirSync(dir)) fs.unlinkSync(path.join(dir, name))
    }
    for (const { cacheFile, script } of fresh) {
      const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}`
      const fd = fs.openSync(temporary, CREATE_NEW, 0o600)
      try {
        fs.writeFileSync(fd, script.createCachedData())
      } finally {
        fs.closeSync(fd)
      }
      fs.renameSync(temporary, cacheFile)
    }
  } catch {
    // A cache that cannot be written is only slower.
  }
}

/** Caches the compiled code of the bundles in `bundleDir` for later runs. */
const enableCompileCache = (bundleDir, env = process.env) => {
  if (env.ASK_USER_COMPILE_CACHE === '0' || env.NODE_DISABLE_COMPILE_CACHE) return
  const dir = privateFolder(cacheFolder(env))
  if (dir === undefined) return
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(dir)
    return
  }
  const fresh = []
  const compile = Module.prototype._compile
  Module.prototype._compile = function (content, filename) {
    // vm.Script cannot run a dynamic import() (not from a cached script, nor without an experimental
    // option): a bundle that may hold one is compiled as Node does.
    if (path.dirname(filename) !== bundleDir || content.includes('import('))
      return compile.call(this, content, filename)
    let cacheFile
    try {
      cacheFile = path.join(dir, cacheName(filename))
    } catch {
      return compile.call(this, content, filename)
    }
    return compileCached(this, content, filename, cacheFile, fresh)
  }
  process.once('exit', () => {
    if (fresh.length > 0) save(dir, fresh)
  })
}

module.exports = { enableCompileCache }
