// `ask-user open`: the running companion's window, the desktop app's raised, or the served page signed in
// through a one-time link in the default browser.
import { createInterface } from 'node:readline'
import { errorMessage } from '../../shared/describe-error'
import { EXIT, printError, refuseArguments, type CliIo, type Command } from '../io'
import { openBrowser } from '../window/open-browser'
import { confirmPage, mintPageLink, raiseOwnWindow, readWindowCredential } from '../window/window-credential'

const HELP = `Usage: ask-user open [--confirm]

Opens the running companion's question window. The desktop app brings its own window to the front;
\`ask-user serve\` has none, so the page opens in the default browser with a one-time link (60 s, one page).
Where the companion cannot tell which user opened the page (macOS, Windows), the page shows six
digits: type them here to confirm it is yours. A reload signs a page out: run this again.
  --confirm   only read the digits a waiting page shows (no new link)
`

/**
 * Raises the desktop app's window, else opens a one-time link; where needed, reads the page's digits
 * from the terminal (5 tries). Never prints or passes on a credential.
 */
export const run: Command = async (args, io) => {
  const confirmOnly = args.length === 1 && args[0] === '--confirm'
  const refused = confirmOnly ? undefined : refuseArguments(args, io, 'open', HELP)
  if (refused !== undefined) return refused
  try {
    const window = await readWindowCredential(io.env)
    const confirm = (digits: string): Promise<boolean> => confirmPage(window, digits, io.signal)
    if (confirmOnly) return await confirmLoop(io, confirm)
    if (await raiseOwnWindow(window, io.signal)) {
      io.stderr.write("Brought the companion's window to the front.\n")
      return EXIT.OK
    }
    openBrowser(await mintPageLink(window, io.signal), io)
    io.stderr.write('Opened a one-time link to the question window in your browser.\n')
    // On Linux the companion checks the page's user itself; `--confirm` covers the rare page that still asks.
    return process.platform === 'linux' ? EXIT.OK : await confirmLoop(io, confirm)
  } catch (error) {
    printError(io, errorMessage(error))
    return EXIT.NO_COMPANION
  }
}

/** Reads up to five lines of digits from stdin; 0 once one matched, 1 otherwise. */
async function confirmLoop(io: CliIo, confirm: (digits: string) => Promise<boolean>): Promise<number> {
  const lines = createInterface({ input: io.stdin, terminal: false })
  io.stderr.write('If the page shows six digits, type them here: ')
  let tries = 0
  for await (const line of lines) {
    if (await confirm(line.trim())) {
      io.stderr.write('Confirmed: the page is signed in.\n')
      lines.close()
      return EXIT.OK
    }
    if (++tries >= 5) break
    io.stderr.write('Those are not the digits the page shows; try again: ')
  }
  lines.close()
  io.stderr.write('\nNot confirmed; run `ask-user open` again for a new link.\n')
  return 1
}
