// Who this machine is on the relay when its companion watches the inbox (core/relay-bridge): its member
// keys, a credential and where to connect. The first desktop mints its own credential (it holds the
// desktop role's signing key); a paired device uses the one the desktop gave it (renewed at start).
import { loadMemberKeys, type MemberKeys } from '../crypto'
import { mintDeviceCredential } from '../nats/credentials'
import { loadRelayKeys } from '../nats/keys-file'
import { RelayHomeError } from './errors'
import { loadDeviceCreds, loadOwnMember, loadRosterAndSettings } from './state'

/**
 * How long the desktop's own credential for a running companion lives: the role's maximum (7 days).
 * A companion left running longer is refused at its next reconnect after that; restarting it mints a new one.
 */
export const DESK_SESSION_SECONDS = 7 * 86_400

/** What a desk needs to connect and open questions. `creds` is secret. */
export interface DeskIdentity {
  url: string
  creds: string
  /** The credential's name (its inbox prefix is derived from it). */
  natsName: string
  /** When the credential expires, in seconds since the epoch. */
  credsExpiresAt: number
  device: MemberKeys
  /** The pinned root key the roster must be signed with. */
  rootPublicKey: string
}

/**
 * Reads the desk identity of the relay home `home` of `role`. Throws `RELAY_NO_URL`, and relay/home's
 * `RELAY_NOT_INITIALIZED` / `RELAY_BAD_STATE` for missing or damaged files.
 */
export async function loadDeskIdentity(
  home: string,
  role: 'desktop' | 'device',
  now: () => number = Date.now,
): Promise<DeskIdentity> {
  const { settings } = await loadRosterAndSettings(home)
  if (settings.url === undefined)
    throw new RelayHomeError(
      'RELAY_NO_URL',
      'No relay URL is known; set "url" in relay-settings.json (or run `ask-user relay init` with --url).',
    )
  const member = await loadOwnMember(home, role)
  const device = await loadMemberKeys(member)
  const common = { url: settings.url, device, rootPublicKey: settings.rootPublicKey }
  if (role === 'device') {
    const stored = await loadDeviceCreds(home)
    return { ...common, creds: stored.creds, natsName: stored.natsName, credsExpiresAt: stored.expiresAt }
  }
  const keys = await loadRelayKeys(home)
  const minted = await mintDeviceCredential(
    { accountPublicKey: keys.accountPublicKey, signingSeed: keys.roleSigningSeeds.desktop, now },
    member.member.id,
    'desktop',
    DESK_SESSION_SECONDS,
  )
  return { ...common, creds: minted.creds, natsName: member.member.id, credsExpiresAt: minted.expiresAt }
}
