// The roster this home holds, read for display (the windows' "Relay" view): the stored file, verified
// against the pinned root key. Version and expiry are not checked here, so an expired roster can still
// be shown with its warning; what accepts answers goes through relay/exchange's RosterPin instead.
import { verifyRosterSignature, type Roster } from '../crypto'
import { RELAY_FILES, loadRosterAndSettings } from './state'

/** The roster file's name in the home (watched for changes by `relay pair`, `relay remove` and renewals). */
export const STORED_ROSTER_FILE = RELAY_FILES.roster

/**
 * Reads and verifies the stored roster of relay home `home`. Throws relay/home's `RELAY_NOT_INITIALIZED`
 * / `RELAY_BAD_STATE`, and relay/crypto's `ROSTER_SIGNATURE` for a file the root key did not sign.
 */
export async function loadStoredRoster(home: string): Promise<Roster> {
  const { roster, settings } = await loadRosterAndSettings(home)
  return verifyRosterSignature(roster.bytes, roster.signature, settings.rootPublicKey)
}
