import { fetchStatus } from '../../agent/status'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { exitCodeFor } from './exit-codes'
import { errorMessage } from '../../shared/describe-error'
import { staleEndpointNote } from './stale-endpoint'

const HELP = `Usage: ask-user status [--json]

Says whether an Ask User Companion is reachable (exit 0) or not (exit 4), its endpoint (never the
token) and how many asks are pending. --json prints {url, server, pending, agents, windows}.
To see and answer the asks, run \`ask-user open\`: it opens the companion's window.
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
          `windows open: ${status.windows}\n` +
          'to answer: run `ask-user open`\n',
      )
    }
    return EXIT.OK
  } catch (error) {
    if (io.signal.aborted) {
      printError(io, 'interrupted')
      return EXIT.INTERRUPTED
    }
    // A dead pid in endpoint.json is the whole story: say so rather than how the dial failed. Otherwise the
    // client's message already says the next step (how to start a companion only when none runs).
    printError(io, (await staleEndpointNote(io.env)) ?? errorMessage(error))
    const code = exitCodeFor(error)
    return code === 1 ? EXIT.NO_COMPANION : code
  }
}
