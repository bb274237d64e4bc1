// Test helper: runs the built `ask-user` under a preload that records, in order, every JavaScript file
// compiled (`load <file> <kinds>`, kinds: `zod` / `sdk` by the module comments the bundler leaves in it)
// and every write to stdout (`stdout <first 60 characters>`), so a test can say what loads before what.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, ROOT, ensureBuilt } from './built-cli'

const PRELOAD = `
const fs = require('node:fs')
const Module = require('node:module')
const log = process.env.LOAD_LOG
const compile = Module.prototype._compile
Module.prototype._compile = function (content, filename) {
  const kinds = [content.includes('// node_modules/zod/') && 'zod', content.includes('// node_modules/@modelcontextprotocol/') && 'sdk'].filter(Boolean)
  fs.appendFileSync(log, 'load ' + filename + ' ' + kinds.join(',') + '\\n')
  return compile.call(this, content, filename)
}
const write = process.stdout.write
process.stdout.write = function (chunk, ...rest) {
  fs.appendFileSync(log, 'stdout ' + String(chunk).slice(0, 60).replace(/\\n/g, ' ') + '\\n')
  return write.call(this, chunk, ...rest)
}
`

/** One traced run: its exit code, its stdout, and the trace's lines in order. */
export interface Traced {
  code: number | null
  stdout: string
  /** `load <file> <zod,sdk>` and `stdout <text>` lines, in order. */
  events: string[]
}

/** A temp folder (also a fine empty `ASK_USER_HOME`) holding the preload; `traced` runs the built CLI. */
export interface LoadTrace {
  dir: string
  /**
   * Runs `node --require <preload> bin/ask-user.js ...args` with only PATH and `env`; `feed` gets stdin and
   * the stdout seen so far, at the start and after each chunk.
   */
  traced(
    args: string[],
    env: Record<string, string>,
    feed: (stdin: NodeJS.WritableStream, stdout: string) => void,
  ): Promise<Traced>
  /** Removes the folder. */
  close(): Promise<void>
}

/** Builds the CLI if needed and makes the trace's folder (named by `prefix`). */
export async function startLoadTrace(prefix: string): Promise<LoadTrace> {
  await ensureBuilt()
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const preload = join(dir, 'trace.cjs')
  await writeFile(preload, PRELOAD)
  let runs = 0
  return {
    dir,
    traced(args, env, feed) {
      const log = join(dir, `log-${++runs}.txt`)
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--require', preload, BIN, ...args], {
          cwd: ROOT,
          // The compile cache (bin/compile-cache.js) compiles the bundles itself, past the preload's hook;
          // which files load is the same with it.
          env: { PATH: process.env['PATH'] ?? '', LOAD_LOG: log, ASK_USER_COMPILE_CACHE: '0', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        })
        let stdout = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk
          feed(child.stdin, stdout)
        })
        child.on('error', reject)
        feed(child.stdin, '')
        child.on('close', (code) => {
          readFile(log, 'utf8').then((text) => resolve({ code, stdout, events: text.trim().split('\n') }), reject)
        })
      })
    },
    close: () => rm(dir, { recursive: true, force: true }),
  }
}
