// `ask-user window-token --out FILE`: the window credential for a script window, in a 0600 file.
import { createPrivateFile } from '../../core/private-files'
import { errorMessage } from '../../shared/describe-error'
import { EXIT, printError, type Command } from '../io'
import { readWindowCredential } from '../window/window-credential'

const HELP = `Usage: ask-user window-token --out FILE

Writes the running companion's window credential to FILE (created with mode 600; an existing file or
a symlink is refused), for a script that connects to the UI channel as a window:
  ws://127.0.0.1:<port>/v1/ui, subprotocol ask-user.ui.v1, Authorization: Bearer <credential>
(or the proof subprotocol, docs/protocol.md). Whoever has it can answer every ask: keep it private.
The agent token of endpoint.json does not open windows.
`

/** Writes the credential to a new 0600 file (never to argv, stdout or the environment). */
export const run: Command = async (args, io) => {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  if (args.length !== 2 || args[0] !== '--out' || args[1] === '') {
    printError(io, 'window-token needs --out FILE (a new file; the credential never goes to stdout)')
    io.stderr.write(HELP)
    return EXIT.INVALID_INPUT
  }
  const path = args[1]!
  let window
  try {
    window = await readWindowCredential(io.env)
  } catch (error) {
    printError(io, errorMessage(error))
    return EXIT.NO_COMPANION
  }
  try {
    await createPrivateFile(path, `${window.credential}\n`)
  } catch (error) {
    printError(io, `cannot create ${path}: ${errorMessage(error)} (it must not exist yet)`)
    return 1
  }
  io.stderr.write(`Wrote the window credential to ${path} (mode 600). It changes when the companion restarts.\n`)
  return EXIT.OK
}
