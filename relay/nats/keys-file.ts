import { join } from 'node:path'
import { z } from 'zod'
import { ensurePrivateDir, readPrivateFile, writeFileAtomic } from '../../core/private-files'
import { RelayNatsError } from './errors'

/**
 * The signing keys the companion keeps in its 0700 home (`relay-nats-keys.json`, 0600): what it needs to
 * mint credentials and push account updates, never the operator's own seed or the account seed.
 */

const seed = (prefix: string) =>
  z.string().regex(new RegExp(`^S${prefix}[A-Z2-7]{56}$`), `must be an nkey seed starting S${prefix}`)

/** The on-disk shape of the companion's relay keys (version 1). */
export const RelayKeysSchema = z
  .object({
    v: z.literal(1),
    accountPublicKey: z.string().regex(/^A[A-Z2-7]{55}$/),
    operatorSigningSeed: seed('O'),
    roleSigningSeeds: z.object({ agent: seed('A'), device: seed('A'), desktop: seed('A'), pair: seed('A') }).strict(),
    systemUserCreds: z.string().min(1),
  })
  .strict()
export type RelayKeys = z.infer<typeof RelayKeysSchema>

/** The file name inside the companion's home. */
export const RELAY_KEYS_FILE = 'relay-nats-keys.json'

/** Writes the keys to `home`/relay-nats-keys.json (folder 0700, file 0600, atomically, never through a link). */
export async function saveRelayKeys(home: string, keys: RelayKeys): Promise<void> {
  await ensurePrivateDir(home)
  await writeFileAtomic(join(home, RELAY_KEYS_FILE), `${JSON.stringify(RelayKeysSchema.parse(keys), null, 2)}\n`)
}

/** Reads and checks the keys; a damaged file is `RELAY_BAD_KEYS_FILE` (its content is never echoed). */
export async function loadRelayKeys(home: string): Promise<RelayKeys> {
  const text = await readPrivateFile(join(home, RELAY_KEYS_FILE))
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    data = undefined
  }
  const parsed = RelayKeysSchema.safeParse(data)
  if (!parsed.success) {
    throw new RelayNatsError(
      'RELAY_BAD_KEYS_FILE',
      `${RELAY_KEYS_FILE} in the companion's home is damaged; restore it from a backup or run \`ask-user relay init\` again.`,
    )
  }
  return parsed.data
}
