// `ask-user serve [--port N] [--open]`: the companion core in plain Node, serving the built UI.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { connectInfo, resolveHome, startCompanion } from '../../core'
import { EXIT, printError, type Command } from '../io'
import { errorMessage } from '../../shared/describe-error'
import { newAskLine } from '../window/new-ask-line'
import { openBrowser } from '../window/open-browser'
import { unknownOption } from '../argument-error'

const USAGE = 'Usage: ask-user serve [--port N] [--open]\n'

const HELP = `${USAGE}
Runs the Ask User Companion without Electron: the same core as the desktop app, with the question
window served to a browser. It binds 127.0.0.1 only, writes endpoint.json (mode 0600) so that agents
find it, and runs until Ctrl-C (or SIGTERM), then closes gracefully: pending asks end as "the
companion is shutting down", never as answers.

On start it prints one line on stdout, a one-time link http://127.0.0.1:<port>/#code=<code> that
signs in one browser window within 60 s; run \`ask-user open\` for another window later.

  --port N   listen on port N (0 to 65535; 0, the default, picks a free port at each start);
             the "port" in settings.json does the same
  --open     also open a signed-in window in the default browser

The companion's folder is ASK_USER_HOME, else the desktop app's folder: endpoint.json, settings.json
(port, history, language, limits) and the history. Only one companion runs per folder.

Exit codes: 0 after Ctrl-C, 1 could not start (port taken, another companion running), 2 invalid
input. Errors go to stderr as "Error: <message>".
`

interface ServeArgs {
  port?: number
  open: boolean
}

/** Parses `serve`'s flags; a string is the error message. */
export function parseServeArgs(args: string[]): ServeArgs | string {
  const out: ServeArgs = { open: false }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--open') out.open = true
    else if (arg === '--port' || arg.startsWith('--port=')) {
      const value = arg === '--port' ? args[++i] : arg.slice('--port='.length)
      if (value === undefined || !/^\d{1,5}$/.test(value) || Number(value) > 65535) {
        return `--port needs a number from 0 to 65535${value === undefined ? '' : `, got "${value}"`}`
      }
      out.port = Number(value)
    } else return unknownOption(arg, ['port', 'open', 'help'], 'serve')
  }
  return out
}

/**
 * The built renderer: `out/renderer` next to the bundle (`out/main/cli.js` → `../renderer`), else the
 * repository's `out/renderer` when running from sources. Returns the first that has an `index.html`,
 * else the first candidate (the companion then serves a placeholder page that says to build).
 */
export function rendererDir(): string {
  const candidates = [join(__dirname, '..', 'renderer'), join(__dirname, '..', '..', 'out', 'renderer')]
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!
}

/**
 * The file agents should run as `ask-user` for this install: this bundle itself when it is a packaged
 * app's (`resources/cli/main/cli.js`, which `connectInfo` maps to the app's launcher), else the
 * checkout's `bin/ask-user.js` (beside `out/main`, or beside `cli/commands` when run from sources).
 */
export function installedScript(): string | undefined {
  const packaged = join(__dirname, 'cli.js')
  if (/[\\/]resources[\\/]cli[\\/]main$/.test(__dirname) && existsSync(packaged)) return packaged
  const bin = join(__dirname, '..', '..', 'bin', 'ask-user.js')
  return existsSync(bin) ? bin : undefined
}

/**
 * Starts the companion (discovery file written, settings and history in the home folder), prints
 * exactly one line on stdout, a one-time page link `http://127.0.0.1:<port>/#code=<code>` (60 s, one
 * page; `ask-user open` makes more), opens another one with `--open`, prints one line on stderr per
 * new ask (`HH:MM new ask from <agent> (<n> pending)`, cli/window/new-ask-line.ts), waits for `io.signal`, then
 * shuts down gracefully and returns 0. Bad flags: exit 2; a start failure (port taken, another
 * companion running): exit 1.
 */
export const run: Command = async (args, io) => {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  const parsed = parseServeArgs(args)
  if (typeof parsed === 'string') {
    printError(io, parsed)
    io.stderr.write(USAGE)
    return EXIT.INVALID_INPUT
  }
  const home = resolveHome(io.env)
  const connect = connectInfo({
    platform: process.platform,
    home,
    env: io.env,
    script: installedScript(),
    node: process.execPath,
  })
  let companion
  try {
    companion = await startCompanion({
      home,
      port: parsed.port,
      staticDir: rendererDir(),
      ...(connect ? { connect } : {}),
      onWarning: (message) => void io.stderr.write(`Warning: ${message}\n`),
    })
  } catch (error) {
    printError(io, errorMessage(error))
    return 1
  }
  io.stdout.write(`${companion.windowLink()}\n`)
  io.stderr.write('That link opens one signed-in window within 60 s; run `ask-user open` for another.\n')
  if (parsed.open) openBrowser(companion.windowLink(), io)
  // The terminal is an alert of its own: a browser tab may be hidden, or not allowed to notify.
  const running = companion
  running.on('added', (ask) => {
    io.stderr.write(`${newAskLine(ask.agent.name, running.pending().length, new Date())}\n`)
  })
  if (!io.signal.aborted)
    await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }))
  await companion.close()
  return EXIT.OK
}
