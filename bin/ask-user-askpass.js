#!/usr/bin/env node
'use strict'
// `ask-user-askpass PROMPT`: the askpass program for sudo (SUDO_ASKPASS), ssh (SSH_ASKPASS) and git
// (GIT_ASKPASS). It takes no options of its own (sudo runs it with execl); the bundled command line
// does the work (`ask-user __askpass PROMPT`). Started by sudo, ssh or git, so that program is its parent.
const { existsSync } = require('node:fs')
const { join } = require('node:path')
const cli = join(__dirname, '..', 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write('ask-user-askpass: not built yet; run `npm run build` in ' + join(__dirname, '..') + '\n')
  process.exit(1)
}
require(cli).runFromProcess({ argv: ['__askpass', ...process.argv.slice(2, 3)] })
