'use strict'
// Runs Electron's own installer (node_modules/electron/install.js, the `install-electron` bin) in this
// process, so that its output and download progress bar stay on the person's terminal. install.js
// reports a failure as a multi-line stack on stderr; here that report is turned into one line with
// its cause and written to the file named by argv[3], for the parent (install.cjs) to print.
//   node installer-child.cjs <path of install.js> <report file>
const { writeFileSync } = require('node:fs')

const [installer, reportFile] = process.argv.slice(2)

/** The first line of an error or of what install.js printed, with the causes undici keeps apart. */
function describe(value) {
  if (!(value instanceof Error))
    return String(value)
      .split('\n')[0]
      .replace(/^\w*Error: /, '')
      .trim()
  const causes = []
  for (let cause = value.cause; cause instanceof Error && causes.length < 3; cause = cause.cause)
    causes.push(cause.message)
  return [value.message, ...causes].join(': ')
}

function report(value) {
  try {
    writeFileSync(reportFile, describe(value))
  } catch {
    // No report file: the parent still sees the exit code.
  }
}

// `fetch failed` alone hides the reason (DNS, refused, TLS): keep it in the message install.js prints.
const realFetch = globalThis.fetch
globalThis.fetch = async (...args) => {
  try {
    return await realFetch(...args)
  } catch (error) {
    if (!(error instanceof Error)) throw error
    throw Object.assign(new Error(describe(error)), { name: error.name })
  }
}
console.error = (...args) => report(args.length === 1 && args[0] instanceof Error ? args[0] : args.join(' '))
process.on('uncaughtException', (error) => {
  report(error)
  process.exit(1)
})

require(installer)
