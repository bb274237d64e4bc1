import { parseArgs } from 'node:util'
import { DEFAULT_PROGRESS_INTERVAL_MS } from '../mcp/progress'
import { version } from '../../package.json'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { errorMessage } from '../../shared/describe-error'
import { earlyFront, type ReadSegment } from '../mcp/early-front'
import { HOOK_TOOL_FLAG, HOOK_TOOL_NAME } from '../../integrations/claude-code/hook-tool-names'
import { EarlyReplies } from '../mcp/early-replies'
import { handOver } from '../mcp/handover'

const HELP = `Usage: ask-user mcp [--progress-interval SECONDS] [${HOOK_TOOL_FLAG}]

Runs an MCP server on stdio offering the ask_user_question tool, answered through the running Ask
User Companion. Set it up in a client with \`ask-user setup <client>\`.
It runs until stdin closes or it is interrupted.

  --progress-interval SECONDS  while a question waits, send notifications/progress this often to
                               calls that ask for progress (default ${DEFAULT_PROGRESS_INTERVAL_MS / 1000}; 0 sends none)
  ${HOOK_TOOL_FLAG}          also serve ${HOOK_TOOL_NAME}, the tool Claude Code's hooks call (set up
                               by \`ask-user setup claude-code --hooks\`; a deny rule hides it from the model)
`

/** The `--progress-interval` in milliseconds and whether to serve the hook tool, or an error message. */
function progressInterval(args: string[]): { help: boolean; ms: number; claudeCodeHooks: boolean } | string {
  try {
    const { values } = parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        'progress-interval': { type: 'string' },
        [HOOK_TOOL_FLAG.slice(2)]: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    })
    const given = values['progress-interval']
    const seconds = given === undefined ? DEFAULT_PROGRESS_INTERVAL_MS / 1000 : Number(given)
    if (given !== undefined && (given.trim() === '' || !Number.isFinite(seconds) || seconds < 0)) {
      return `--progress-interval must be a number of seconds (0 or more), not "${given}"`
    }
    return {
      help: values.help === true,
      ms: Math.round(seconds * 1000),
      claudeCodeHooks: values[HOOK_TOOL_FLAG.slice(2)] === true,
    }
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
  // The early replies list ask_user_question alone: with the hook tool, the SDK answers from the start.
  let read: ReadSegment[] = []
  let ended = false
  if (!parsed.claudeCodeHooks) {
    const end = await earlyFront(io.stdin, io.stdout, new EarlyReplies(version), io.signal)
    if (end.kind === 'stdin-ended') return EXIT.OK
    if (end.kind === 'aborted') return EXIT.INTERRUPTED
    ;({ read, ended } = end)
  }
  const streams = handOver(io.stdin, io.stdout, read, ended)
  try {
    const { serveMcp } = await import('../mcp/sdk-server')
    return await serveMcp(io, streams.input, streams.output, parsed.ms, parsed.claudeCodeHooks)
  } finally {
    streams.release()
  }
}
