// `ask-user relay app-url [URL] [--websocket-url URL]`: where the phone app is served and where it finds the
// relay, as the first desktop's settings record them (the pairing QR opens `<appUrl>#pair=…`).
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { resolveHome } from '../../core/home'
import { writeFileAtomic } from '../../core/private-files'
import { RELAY_FILES, RelaySettingsSchema, loadRosterAndSettings, relayRole } from '../../relay/home/state'
import { EXIT, printError, type CliIo } from '../io'
import { allowedOriginsLine, appOrigin, checkAppUrl, checkWebsocketUrl } from './app-urls'
import { RelayCliError } from './errors'

/**
 * Runs `relay app-url`. Without arguments prints the app URL and the WebSocket URL (`-` when unset); with
 * URL and/or `--websocket-url` stores them in relay-settings.json (0600, atomically) and prints the
 * `allowed_origins` line nats-server.conf needs. Refuses on a paired device (`RELAY_APP_URL_NEEDS_DESKTOP`:
 * its settings come from the first desktop) and bad URLs (`RELAY_BAD_APP_URL`, `RELAY_BAD_WEBSOCKET_URL`).
 */
export async function runAppUrl(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { 'websocket-url': { type: 'string' } },
  })
  if (positionals.length > 1) {
    printError(io, 'relay app-url takes at most one URL (where the phone app is served)')
    return EXIT.INVALID_INPUT
  }
  const home = resolveHome(io.env)
  const role = await relayRole(home)
  if (role === 'device')
    throw new RelayCliError(
      'RELAY_APP_URL_NEEDS_DESKTOP',
      'This is a paired device: the app and WebSocket URLs are set on the first desktop (`ask-user relay app-url URL` there) and reach this device with the roster.',
    )
  // Checked before anything is read or written, so a bad URL changes nothing.
  const appUrl = positionals[0] === undefined ? undefined : checkAppUrl(positionals[0])
  const websocketUrl = values['websocket-url'] === undefined ? undefined : checkWebsocketUrl(values['websocket-url'])
  const { settings } = await loadRosterAndSettings(home)
  if (appUrl === undefined && websocketUrl === undefined) {
    io.stdout.write(`app: ${settings.appUrl ?? '-'}\nwebsocket: ${settings.websocketUrl ?? '-'}\n`)
    return EXIT.OK
  }
  const next = RelaySettingsSchema.parse({
    ...settings,
    ...(appUrl === undefined ? {} : { appUrl }),
    ...(websocketUrl === undefined ? {} : { websocketUrl }),
  })
  await writeFileAtomic(join(home, RELAY_FILES.settings), `${JSON.stringify(next, null, 2)}\n`)
  io.stdout.write(`app: ${next.appUrl ?? '-'}\nwebsocket: ${next.websocketUrl ?? '-'}\n`)
  if (appUrl !== undefined) {
    io.stdout.write(
      [
        "The relay's WebSocket listener must allow this origin: in nats-server.conf's websocket block, put",
        allowedOriginsLine([appOrigin(appUrl)]),
        '(keep any other origin a phone still uses in the list), then restart nats-server.',
        '',
      ].join('\n'),
    )
  }
  return EXIT.OK
}
