// The VAPID key pair (RFC 8292) the first desktop makes, kept 0600 in its home through core/private-files
// (Node only). Every sender gets a copy through the roster's sealed push section; rotating it
// (docs/phone.md, "Waking the phone") is: remove this file, and phones subscribe again with the new public key.
import { join } from 'node:path'
import webpush from 'web-push'
import { z } from 'zod'
import { isErrnoCode, readPrivateFile, writeFileAtomic } from '../../core/private-files'
import { RelayPushError } from './errors'
import { Sha256Schema } from '../crypto/schemas'
import { VapidKeysSchema, type VapidKeys } from './schemas'

/** How many gone endpoints are remembered (the oldest are forgotten first). */
const MAX_GONE = 256

/** The file's name in the companion's home. */
export const VAPID_FILE = 'relay-vapid.json'
/** The VAPID `sub` claim when the person named none: push services want a contact, this says whose. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:ask-user-companion@localhost.invalid'

/** The VAPID file's shape; a desktop joining with `relay connect` checks the copy it is given against it. */
export const VapidFileSchema = z.strictObject({
  v: z.literal(1),
  keys: VapidKeysSchema,
  subject: z.string().min(1).max(200),
  /** SHA-256 (base64url) of endpoints a push service called gone (receipts' `pushGone`): left out of the section. */
  gone: z.array(Sha256Schema).max(MAX_GONE).default([]),
})
export type VapidFile = z.infer<typeof VapidFileSchema>

/** A fresh VAPID key pair (P-256), as web-push makes it. */
export function generateVapidKeys(): VapidKeys {
  return VapidKeysSchema.parse(webpush.generateVAPIDKeys())
}

/**
 * The VAPID keys of relay home `home`, made and stored (0600) on first use. Throws `PUSH_VAPID_INVALID`
 * when the file exists but is malformed (remove it to rotate: phones then subscribe again).
 */
export async function loadOrCreateVapid(home: string): Promise<VapidFile> {
  const path = join(home, VAPID_FILE)
  let text: string | undefined
  try {
    text = await readPrivateFile(path)
  } catch (error) {
    if (!isErrnoCode(error, 'ENOENT')) throw error
  }
  if (text === undefined) {
    const created: VapidFile = { v: 1, keys: generateVapidKeys(), subject: DEFAULT_VAPID_SUBJECT, gone: [] }
    await saveVapid(home, created)
    return created
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    data = undefined
  }
  const parsed = VapidFileSchema.safeParse(data)
  if (!parsed.success)
    throw new RelayPushError(
      'PUSH_VAPID_INVALID',
      `${VAPID_FILE} is malformed; remove it to make a new key (phones then subscribe again)`,
    )
  return parsed.data
}

/** Remembers `endpoints` (SHA-256, base64url) as gone, keeping the newest {@link MAX_GONE}. */
export async function rememberGone(home: string, file: VapidFile, endpoints: readonly string[]): Promise<VapidFile> {
  const fresh = endpoints.filter((hash) => !file.gone.includes(hash))
  if (fresh.length === 0) return file
  const next: VapidFile = { ...file, gone: [...file.gone, ...fresh].slice(-MAX_GONE) }
  await saveVapid(home, next)
  return next
}

/** Writes the VAPID file of `home` (0600, atomically). */
export async function saveVapid(home: string, file: VapidFile): Promise<void> {
  await writeFileAtomic(join(home, VAPID_FILE), `${JSON.stringify(file)}\n`)
}
