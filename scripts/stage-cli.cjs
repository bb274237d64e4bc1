'use strict'
// The packaged `ask-user` command as it ships beside the app (resources/cli): the CLI bundles without
// the Electron entry, their entry bin/ask-user.js with its compile cache (the npm install's own, which
// the launcher in resources/bin runs, so `ask-user mcp` and `ask-user hook` load their own bundles),
// the page `ask-user serve` serves and the phone app `relay serve-app` writes. Used by scripts/dist.mjs and by the bench (bench/packaged-cli.ts).
const { cpSync, rmSync } = require('node:fs')
const { join } = require('node:path')

/** Writes the `cli` folder of the packaged app into `staging` (emptied first) from `root`'s build. */
function stageCli(root, staging) {
  rmSync(staging, { recursive: true, force: true })
  cpSync(join(root, 'out', 'main'), join(staging, 'main'), {
    recursive: true,
    filter: (path) => !/[\\/]index\.js$|\.png$/.test(path),
  })
  cpSync(join(root, 'out', 'renderer'), join(staging, 'renderer'), { recursive: true })
  // The phone app, which `ask-user relay serve-app DIR` copies into a web root (found beside main/).
  cpSync(join(root, 'out', 'phone'), join(staging, 'phone'), { recursive: true })
  for (const file of ['ask-user.js', 'compile-cache.js']) cpSync(join(root, 'bin', file), join(staging, 'bin', file))
}

module.exports = { stageCli }
