// `ask-user relay join` on the new device: reads the pairing line from stdin, pairs, and keeps its keys,
// its credential, the roster and the relay's public settings in this machine's companion home (0600).
import { ensurePrivateDir } from '../../core/private-files'
import { MemberSecretSchema, type Member } from '../../relay/crypto'
import { joinPairing, parsePairLine } from '../../relay/pairing'
import { CLI_SERVER_CHECKS } from '../../relay/home/desktop-link'
import { RelayCliError } from './errors'
import {
  DEVICE_FILES,
  DeviceCredsSchema,
  relayInitExists,
  RelaySettingsSchema,
  RELAY_FILES,
  saveJson,
  saveRoster,
} from '../../relay/home/state'

/** Refuses with `RELAY_ALREADY_INITIALIZED` when `home` already belongs to a relay (before `verb` sends anything). */
export async function refuseRelayHome(home: string, verb: 'join' | 'connect'): Promise<void> {
  if (await relayInitExists(home)) {
    throw new RelayCliError(
      'RELAY_ALREADY_INITIALIZED',
      `This companion home already belongs to a relay; ${verb} from a fresh home (ASK_USER_HOME) or remove its relay-*.json files first.`,
    )
  }
}

/**
 * Joins the relay of the pairing `line` as device `name`. Refuses with `RELAY_ALREADY_INITIALIZED`
 * before anything when this home already belongs to a relay, then with the line's and the pairing's codes.
 */
export async function joinRelay(options: {
  home: string
  line: string
  name: string
  showCode: (code: string) => void
  now?: () => number
}): Promise<{ member: Member; rosterVersion: number }> {
  const now = options.now ?? Date.now
  await refuseRelayHome(options.home, 'join')
  const offer = parsePairLine(options.line, now())
  const joined = await joinPairing(offer, {
    name: options.name,
    showCode: options.showCode,
    now,
    server: CLI_SERVER_CHECKS,
  })
  await ensurePrivateDir(options.home)
  await saveJson(options.home, DEVICE_FILES.device, MemberSecretSchema, joined.secret)
  await saveJson(options.home, DEVICE_FILES.deviceCreds, DeviceCredsSchema, {
    v: 1,
    creds: joined.creds,
    natsName: joined.grant.natsName,
    expiresAt: joined.grant.credsExpiresAt,
  })
  await saveRoster(options.home, joined.signedRoster)
  await saveJson(options.home, RELAY_FILES.settings, RelaySettingsSchema, {
    v: 1,
    url: offer.url,
    rootPublicKey: offer.rootPublicKey,
  })
  return { member: joined.secret.member, rosterVersion: joined.roster.version }
}
