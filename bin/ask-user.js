#!/usr/bin/env node
'use strict'
// The `ask-user` command. The TypeScript sources are built into out/ by `npm run build`
// (run automatically by `npm ci` / `npm install` through the `prepare` script).
// `ask-user mcp` and `ask-user hook`, which harnesses spawn often, have bundles of their own that load
// only what their first reply needs (docs/performance.md, "Start-up of spawned commands").
const { existsSync } = require('node:fs')
const { join } = require('node:path')
const OWN_BUNDLE = { mcp: 'mcp.js', hook: 'hook.js' }
const command = process.argv[2]
const bundle = Object.prototype.hasOwnProperty.call(OWN_BUNDLE, command) ? OWN_BUNDLE[command] : 'cli.js'
// A checkout or npm install keeps the bundles in out/main; the packaged app stages this file in
// resources/cli/bin, beside its bundles in resources/cli/main (scripts/dist.mjs).
const packagedMain = join(__dirname, '..', 'main')
const mainDir = existsSync(join(packagedMain, 'cli.js')) ? packagedMain : join(__dirname, '..', 'out', 'main')
const cli = join(mainDir, bundle)
if (!existsSync(cli)) {
  process.stderr.write('Error: ask-user is not built yet; run `npm run build` in ' + join(__dirname, '..') + '\n')
  process.exit(2)
}
// V8's compiled code of the bundles is kept between runs (bin/compile-cache.js).
require('./compile-cache').enableCompileCache(mainDir)
require(cli).runFromProcess()
