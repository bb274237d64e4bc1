// `ask-user open`: a signed-in window of the running companion in the default browser.
import { createInterface } from 'node:readline'
import { errorMessage } from '../../shared/describe-error'
import { EXIT, printError, refuseArguments, type CliIo, type Command } from '../io'
import { openBrowser } from '../window/open-browser'
import { confirmPage, mintPageLink, readWindowCredential } from '../window/window-credential'

const HELP = `Usage: ask-user open [--confirm]

Opens the companion's question window in the default browser with a one-time link (60 s, one page).
Where the companion cannot tell which user opened the page (macOS, Windows), the page shows six
digits: type them here to confirm it is yours. A reload signs a page out: run this again.
  --confirm   only read the digits a waiting page shows (no new link)
`

/** Opens a one-time link; where needed, reads the page's digits from the terminal (5 tries). */
export const run: Command = async (args, io) => {
  const confirmOnly = args.length === 1 && args[0] === '--confirm'
  const refused = confirmOnly ? undefined : refuseArguments(args, io, 'open', HELP)
  if (refused !== undefined) return refused
  try {
    const window = await readWindowCredential(io.env)
    const confirm = (digits: string): Promise<boolean> => confirmPage(window, digits, io.signal)
    if (confirmOnly) return await confirmLoop(io, confirm)
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
