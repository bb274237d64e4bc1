import { fetchStatus } from '../../agent/status'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { exitCodeFor } from './exit-codes'
import { errorMessage } from '../../shared/describe-error'

const HELP = `Usage: ask-user status [--json]

Says whether an Ask User Companion is reachable (exit 0) or not (exit 4), its endpoint (never the
token) and how many asks are pending. --json prints {url, server, pending, agents, windows}.
`

/** `ask-user status`: reachability, endpoint URL and pending count. */
export const run: Command = async (args, io) => {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  const unknown = args.find((arg) => arg !== '--json')
  if (unknown !== undefined) {
    printError(io, `unexpected argument "${unknown}"; run \`ask-user status --help\``)
    return EXIT.INVALID_INPUT
  }
  try {
    const { url, status } = await fetchStatus(io.env, { signal: io.signal })
    if (args.includes('--json')) {
      const { server, pending, agents, windows } = status
      io.stdout.write(`${JSON.stringify({ url, server, pending, agents, windows })}\n`)
    } else {
      io.stdout.write(
        `Ask User Companion is running (${status.server.name} ${status.server.version})\n` +
          `endpoint: ${url}\n` +
          `pending asks: ${status.pending}\n` +
          `agents connected: ${status.agents}\n` +
          `windows open: ${status.windows}\n`,
      )
    }
    return EXIT.OK
  } catch (error) {
    if (io.signal.aborted) {
      printError(io, 'interrupted')
      return EXIT.INTERRUPTED
    }
    // The client's message already says the next step (how to start a companion only when none runs).
    printError(io, errorMessage(error))
    const code = exitCodeFor(error)
    return code === 1 ? EXIT.NO_COMPANION : code
  }
}
