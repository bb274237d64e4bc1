// `ask-user agent-token | ssh HOST 'umask 077; cat > FILE'`: the agent token for a remote agent, over a pipe.
import { discoverEndpoint } from '../../agent/discovery'
import { errorMessage } from '../../shared/describe-error'
import { EXIT, printError, refuseArguments, type Command } from '../io'

const HELP = `Usage: ask-user agent-token | ssh HOST 'umask 077 && cat > ~/.config/ask-user/token'

Writes the running companion's agent token to stdout, which must be a pipe or a file (never a
terminal, so that it stays out of scrollback), for an agent on another machine that reaches the
companion through \`ssh -R\` with ASK_USER_URL and ASK_USER_TOKEN_FILE. The agent token lets an agent
ask; it never opens a window or answers. It changes when the companion restarts.
`

/** Prints the token of endpoint.json (a live companion's) to a non-terminal stdout. */
export const run: Command = async (args, io) => {
  const refused = refuseArguments(args, io, 'agent-token', HELP)
  if (refused !== undefined) return refused
  if ((io.stdout as { isTTY?: boolean }).isTTY === true) {
    printError(io, 'agent-token writes a secret: pipe it (for example into ssh) instead of printing it on the terminal')
    return EXIT.INVALID_INPUT
  }
  try {
    const endpoint = await discoverEndpoint({ ...io.env, ASK_USER_URL: '' })
    io.stdout.write(`${endpoint.token}\n`)
    return EXIT.OK
  } catch (error) {
    printError(io, errorMessage(error))
    return EXIT.NO_COMPANION
  }
}
