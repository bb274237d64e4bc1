// What one desktop hands another that joins its relay (`relay connect`), inside the pairing grant sealed
// to the joining desktop's key: the NATS signing keys (relay/nats/keys-file.ts), the VAPID key (made
// first if this home has none), and the phone URLs. The receiver checks each against its own schema
// before storing it exactly where the first desktop keeps it. The operator's own key never was in a home, so it never
// travels; the root secret comes from the recovery code the person types on the joining desktop.
import { loadRelayKeys, RelayKeysSchema, saveRelayKeys, type RelayKeys } from '../nats/keys-file'
import { RelayPairingError, type DeskSecrets } from '../pairing'
import { loadOrCreateVapid, saveVapid, VapidFileSchema, type VapidFile } from '../push/vapid'
import type { RelaySettings } from './state'

/** The desk secrets of desktop home `home` with public `settings`, for a grant to a joining desktop. */
export async function deskSecretsOf(home: string, settings: RelaySettings): Promise<DeskSecrets> {
  const keys = await loadRelayKeys(home)
  // Made now if this home has none yet, so both desktops seal the roster's push section with one key
  // (each making its own would drop the other's phones' subscriptions).
  const vapid = await loadOrCreateVapid(home)
  return {
    natsKeys: JSON.stringify(keys),
    vapid: JSON.stringify(vapid),
    ...(settings.websocketUrl === undefined ? {} : { websocketUrl: settings.websocketUrl }),
    ...(settings.appUrl === undefined ? {} : { appUrl: settings.appUrl }),
  }
}

/** The desk secrets as checked values: throws `RELAY_PAIR_RESPONSE_INVALID` when a part is not what it names. */
export function checkDeskSecrets(desk: DeskSecrets): { keys: RelayKeys; vapid?: VapidFile } {
  const keys = RelayKeysSchema.safeParse(parseOrUndefined(desk.natsKeys))
  const vapid = desk.vapid === undefined ? undefined : VapidFileSchema.safeParse(parseOrUndefined(desk.vapid))
  if (!keys.success || (vapid !== undefined && !vapid.success)) {
    throw new RelayPairingError(
      'RELAY_PAIR_RESPONSE_INVALID',
      "The desktop's reply carries damaged signing keys; nothing was stored. Run `ask-user relay pair` on the first desktop again.",
    )
  }
  return { keys: keys.data, ...(vapid?.success === true ? { vapid: vapid.data } : {}) }
}

/** Stores checked desk secrets in `home` (0700) as 0600 files, where the first desktop keeps them. */
export async function saveDeskSecrets(home: string, secrets: { keys: RelayKeys; vapid?: VapidFile }): Promise<void> {
  await saveRelayKeys(home, secrets.keys)
  if (secrets.vapid !== undefined) await saveVapid(home, secrets.vapid)
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
