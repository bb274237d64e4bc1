import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * The JavaScript file behind an installed package's bin (`eslint` → node_modules/eslint/bin/eslint.js),
 * to run with `process.execPath`: the same on every OS, with no `.cmd` shim or shell on Windows.
 */
export function packageBin(root, pkg, name = pkg.split('/').at(-1)) {
  const manifestPath = createRequire(join(root, 'package.json')).resolve(`${pkg}/package.json`)
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'))
  const relative = typeof bin === 'string' ? bin : bin?.[name]
  if (!relative) throw new Error(`${pkg} has no bin named ${name}`)
  return join(dirname(manifestPath), relative)
}
