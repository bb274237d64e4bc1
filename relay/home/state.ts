// What `relay init` and `relay join` leave in the companion's 0700 home besides relay/nats's signing keys: the root
// secret, this desktop's member keys, the signed roster and the public settings. Every file is 0600 and
// written through core/private-files (atomically, never through a link).
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { isErrnoCode, readPrivateFile, writeFileAtomic } from '../../core/private-files'
import {
  MemberSecretSchema,
  RootSecretSchema,
  RosterRecordSchema,
  rosterRecordOf,
  signedRosterOf,
  type MemberSecret,
  type RootSecret,
  type SignedRoster,
} from '../crypto'
import { RELAY_KEYS_FILE } from '../nats/keys-file'
import { RelayHomeError } from './errors'

/** File names inside the companion's home. */
export const RELAY_FILES = {
  root: 'relay-root.json',
  desktop: 'relay-desktop.json',
  roster: 'relay-roster.json',
  settings: 'relay-settings.json',
  natsKeys: RELAY_KEYS_FILE,
  /** A short-lived admin credential from init, used once by the first connection to make the buckets. */
  setup: 'relay-setup.creds',
} as const

/** What `relay join` leaves in a paired device's home, besides the roster and the settings. */
export const DEVICE_FILES = {
  /** Its member keys (the first desktop keeps `relay-desktop.json` instead). */
  device: 'relay-device.json',
  /** Its NATS credential from the desktop. */
  deviceCreds: 'relay-device-creds.json',
} as const

/** On the first desktop, written at the first pairing: when each device's credential was last minted. */
export const RENEWALS_FILE = 'relay-renewals.json'

const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')

/** The public facts agents are given: where the relay is and which root key signs the roster. */
export const RelaySettingsSchema = z.strictObject({
  v: z.literal(1),
  /** The relay URL agents connect to, when init was given `--url`. */
  url: z.string().min(1).optional(),
  /** The root's Ed25519 public key (base64url), pinned by every agent and device. */
  rootPublicKey: Base64url,
  /** The relay's WebSocket URL for browsers (the phone app): `wss://host:port`, or `ws://` on loopback. */
  websocketUrl: z.string().min(1).max(2_048).optional(),
  /**
   * Where the phone app is served (`https://…/`, its origin listed in the server's `allowed_origins`): the
   * pairing QR opens `<appUrl>#pair=…`.
   */
  appUrl: z.string().min(1).max(2_048).optional(),
})
export type RelaySettings = z.infer<typeof RelaySettingsSchema>

/** True when any relay file is already in `home` (init refuses then, so nothing is overwritten). */
export async function relayInitExists(home: string): Promise<boolean> {
  for (const name of [...Object.values(RELAY_FILES), ...Object.values(DEVICE_FILES)]) {
    try {
      // lstat, not stat: a link left where a file goes counts as "there" too.
      await lstat(join(home, name))
      return true
    } catch (error) {
      if (!isErrnoCode(error, 'ENOENT')) return true
    }
  }
  return false
}

/**
 * Which side of a relay `home` holds: `desktop` (it has the root key: it signs rosters and mints
 * credentials), `device` (a home `relay join` made) or `none`. Only the file names are looked at.
 */
export async function relayRole(home: string): Promise<'desktop' | 'device' | 'none'> {
  const exists = (name: string): Promise<boolean> =>
    lstat(join(home, name)).then(
      () => true,
      (error: unknown) => !isErrnoCode(error, 'ENOENT'),
    )
  if (await exists(RELAY_FILES.root)) return 'desktop'
  return (await exists(DEVICE_FILES.device)) ? 'device' : 'none'
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

/** Writes the root secret, this desktop's keys, the roster and the settings (home must already be 0700). */
export async function saveRelayState(
  home: string,
  state: { root: RootSecret; desktop: MemberSecret; roster: SignedRoster; settings: RelaySettings },
): Promise<void> {
  await writeFileAtomic(join(home, RELAY_FILES.root), json(RootSecretSchema.parse(state.root)))
  await writeFileAtomic(join(home, RELAY_FILES.desktop), json(MemberSecretSchema.parse(state.desktop)))
  await saveRoster(home, state.roster)
  await writeFileAtomic(join(home, RELAY_FILES.settings), json(RelaySettingsSchema.parse(state.settings)))
}

/** Replaces the stored roster with a newly signed one. */
export async function saveRoster(home: string, roster: SignedRoster): Promise<void> {
  await writeFileAtomic(join(home, RELAY_FILES.roster), json(rosterRecordOf(roster)))
}

/** A paired device's NATS credential as stored (0600): the `.creds` text, its user name and expiry. */
export const DeviceCredsSchema = z.strictObject({
  v: z.literal(1),
  creds: z.string().min(1),
  natsName: z.string().min(1),
  expiresAt: z.int().min(0),
})
export type DeviceCreds = z.infer<typeof DeviceCredsSchema>

/**
 * The desktop's record of the credentials it minted: each paired device's last one (member id → mint time
 * in ms, expiry in ms, nkey), each agent's from `relay add-agent` (member id → expiry in ms, shown in the
 * Relay view), and the revoked users.
 */
export const RenewalsSchema = z.strictObject({
  v: z.literal(1),
  devices: z.record(
    z.string(),
    z.strictObject({ renewedAt: z.int().min(0), expiresAt: z.int().min(0), nkey: z.string() }),
  ),
  /** Agent member id → when its credential expires (ms since the epoch). Absent in homes from before it. */
  agents: z.record(z.string(), z.strictObject({ expiresAt: z.int().min(0) })).optional(),
  /** Revoked NATS users: user public key → seconds since the epoch (every push carries them all). */
  revoked: z.record(z.string(), z.int().min(0)).optional(),
})
export type Renewals = z.infer<typeof RenewalsSchema>

/** Writes `value` as the 0600 JSON file `name` in `home` after checking it against `schema`. */
export async function saveJson<T>(home: string, name: string, schema: z.ZodType<T>, value: T): Promise<void> {
  await writeFileAtomic(join(home, name), json(schema.parse(value)))
}

/** Reads the renewals record; an absent file is an empty record. */
export async function loadRenewals(home: string): Promise<Renewals> {
  return (await readJsonFile(home, RENEWALS_FILE, RenewalsSchema)) ?? { v: 1, devices: {} }
}

/** Reads this machine's own member keys: the desktop's, or a paired device's. */
export async function loadOwnMember(home: string, which: 'desktop' | 'device'): Promise<MemberSecret> {
  return readJson(home, which === 'desktop' ? RELAY_FILES.desktop : DEVICE_FILES.device, MemberSecretSchema)
}

/** Reads a paired device's NATS credential. */
export async function loadDeviceCreds(home: string): Promise<DeviceCreds> {
  return readJson(home, DEVICE_FILES.deviceCreds, DeviceCredsSchema)
}

/** Reads the roster and the settings (every relay home has both). */
export async function loadRosterAndSettings(home: string): Promise<{ roster: SignedRoster; settings: RelaySettings }> {
  const stored = await readJson(home, RELAY_FILES.roster, RosterRecordSchema)
  const settings = await readJson(home, RELAY_FILES.settings, RelaySettingsSchema)
  return { roster: signedRosterOf(stored), settings }
}

/** Reads the 0600 JSON file `name` of `home` against `schema` (`RELAY_NOT_INITIALIZED` / `RELAY_BAD_STATE`). */
export async function readJson<T>(home: string, name: string, schema: z.ZodType<T>): Promise<T> {
  const value = await readJsonFile(home, name, schema)
  if (value === undefined)
    throw new RelayHomeError(
      'RELAY_NOT_INITIALIZED',
      `${name} is missing from the companion's home; run \`ask-user relay init --self-hosted DIR\` first.`,
    )
  return value
}

/**
 * Reads the 0600 JSON file `name` of `home` against `schema`; undefined when there is no such file. A
 * file that is not that JSON is `RELAY_BAD_STATE` with `damaged` as its message (default: restore it
 * from a backup). The content is never echoed: these files hold secrets.
 */
export async function readJsonFile<T>(
  home: string,
  name: string,
  schema: z.ZodType<T>,
  damaged = `${name} in the companion's home is damaged; restore it from a backup.`,
): Promise<T | undefined> {
  let text: string
  try {
    text = await readPrivateFile(join(home, name))
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined
    throw error
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    data = undefined
  }
  const parsed = schema.safeParse(data)
  if (!parsed.success) throw new RelayHomeError('RELAY_BAD_STATE', damaged)
  return parsed.data
}

/** Reads the root secret, the roster and the settings back (`RELAY_NOT_INITIALIZED` / `RELAY_BAD_STATE`). */
export async function loadRelayState(
  home: string,
): Promise<{ root: RootSecret; roster: SignedRoster; settings: RelaySettings }> {
  const root = await readJson(home, RELAY_FILES.root, RootSecretSchema)
  return { root, ...(await loadRosterAndSettings(home)) }
}
