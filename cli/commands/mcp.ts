import type { Readable, Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { AskUserClient } from '../../agent/client'
import { createAskUserMcpServer } from '../../agent/mcp-server'
import { DEFAULT_PROGRESS_INTERVAL_MS } from '../../agent/progress'
import { version } from '../../package.json'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { errorMessage } from '../../shared/describe-error'

const HELP = `Usage: ask-user mcp [--progress-interval SECONDS]

Runs an MCP server on stdio offering the ask_user_question tool, answered through the running Ask
User Companion. Set it up in a client with \`ask-user setup <client>\`.
It runs until stdin closes or it is interrupted.

  --progress-interval SECONDS  while a question waits, send notifications/progress this often to
                               calls that ask for progress (default ${DEFAULT_PROGRESS_INTERVAL_MS / 1000}; 0 sends none)
`

/** The `--progress-interval` in milliseconds, or an error message. */
function progressInterval(args: string[]): { help: boolean; ms: number } | string {
  try {
    const { values } = parseArgs({
      args,
      options: { help: { type: 'boolean', short: 'h' }, 'progress-interval': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    })
    const given = values['progress-interval']
    const seconds = given === undefined ? DEFAULT_PROGRESS_INTERVAL_MS / 1000 : Number(given)
    if (given !== undefined && (given.trim() === '' || !Number.isFinite(seconds) || seconds < 0)) {
      return `--progress-interval must be a number of seconds (0 or more), not "${given}"`
    }
    return { help: values.help === true, ms: Math.round(seconds * 1000) }
  } catch (error) {
    return `${errorMessage(error)}; run \`ask-user mcp --help\``
  }
}

/** `ask-user mcp`: an MCP server on stdin/stdout until stdin ends or the process is interrupted. */
export const run: Command = async (args, io) => {
  const parsed = progressInterval(args)
  if (typeof parsed === 'string') {
    printError(io, parsed)
    return EXIT.INVALID_INPUT
  }
  if (parsed.help) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  const client = new AskUserClient({ env: io.env, cwd: io.cwd, name: 'mcp client', version })
  const server = createAskUserMcpServer({ client, version, progressIntervalMs: parsed.ms })
  // The real CLI passes process.stdin/stdout, which are full Node streams.
  const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable)
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve()
    io.stdin.once('end', stop)
    io.stdin.once('close', stop)
    server.onclose = stop
    io.signal.addEventListener('abort', stop, { once: true })
  })
  await server.connect(transport)
  await stopped
  await client.close()
  await server.close()
  return io.signal.aborted ? EXIT.INTERRUPTED : EXIT.OK
}
