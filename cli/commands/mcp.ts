import { parseArgs } from 'node:util'
import { DEFAULT_PROGRESS_INTERVAL_MS } from '../mcp/progress'
import { version } from '../../package.json'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { errorMessage } from '../../shared/describe-error'
import { earlyFront } from '../mcp/early-front'
import { EarlyReplies } from '../mcp/early-replies'
import { handOver } from '../mcp/handover'

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

/**
 * `ask-user mcp`: an MCP server on stdin/stdout, for both protocol eras, until stdin ends or the
 * process is interrupted. A 2025-era opening (`initialize`, `tools/list`) is answered before the MCP SDK
 * loads (cli/mcp/early-replies.ts); at anything else, a 2026-07-28 opening included, the SDK takes over
 * the stream from where it began (cli/mcp/handover.ts), so the wire is the SDK's throughout.
 */
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
  const end = await earlyFront(io.stdin, io.stdout, new EarlyReplies(version), io.signal)
  if (end.kind === 'stdin-ended') return EXIT.OK
  if (end.kind === 'aborted') return EXIT.INTERRUPTED
  const streams = handOver(io.stdin, io.stdout, end.read, end.ended)
  try {
    const { serveMcp } = await import('../mcp/sdk-server')
    return await serveMcp(io, streams.input, streams.output, parsed.ms)
  } finally {
    streams.release()
  }
}
