#!/usr/bin/env node
'use strict'
// The `ask-user` command. The TypeScript sources are built into out/ by `npm run build`
// (run automatically by `npm ci` / `npm install` through the `prepare` script).
const { existsSync } = require('node:fs')
const { join } = require('node:path')
const cli = join(__dirname, '..', 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write('Error: ask-user is not built yet; run `npm run build` in ' + join(__dirname, '..') + '\n')
  process.exit(2)
}
require(cli).runFromProcess()
