// Runs independent commands a few at a time and prints each one's output whole, in the order given, once
// it is done: a two-core machine checks types while it lints, and the log still reads one step at a time.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'

/**
 * @typedef {{ title: string, command: string, args: string[], cwd: string }} Step
 * @typedef {{ title: string, ok: boolean, output: string }} StepResult
 */

/** Runs `step` with its stdout and stderr gathered into one text; never rejects. */
function runGathered(step) {
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd: step.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.once('error', (error) => resolve({ title: step.title, ok: false, output: `${output}${error.message}\n` }))
    child.once('close', (code) => resolve({ title: step.title, ok: code === 0, output }))
  })
}

/**
 * Runs `steps`, at most `limit` at a time (the machine's cores, at least two), and calls `report` with
 * each result in the order of `steps`, as soon as it and every step before it are done.
 * @param {Step[]} steps
 * @param {(result: StepResult) => void} report
 * @returns {Promise<StepResult[]>}
 */
export async function runAtOnce(steps, report, limit = Math.max(2, availableParallelism())) {
  const results = new Array(steps.length)
  let next = 0
  let reported = 0
  const flush = () => {
    while (reported < steps.length && results[reported] !== undefined) report(results[reported++])
  }
  const lane = async () => {
    while (next < steps.length) {
      const index = next++
      results[index] = await runGathered(steps[index])
      flush()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, steps.length) }, lane))
  return results
}
