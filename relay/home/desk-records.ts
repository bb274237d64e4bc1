// The desktops' shared credential records: each paired device's nkey and last credential (renewals need
// the nkey) and the revoked NATS users (every account push carries them all). With two desktops either
// one pairs, renews and removes, so the records live on the relay at `roster/desk-records`, sealed to
// every desktop of the roster and signed by the desktop that wrote them; the home's relay-renewals.json
// is the cache. Merging is a union: of devices (the later credential of each), of revocations (the later
// time of each), and a device whose nkey is revoked is dropped, so a merge never lifts a revocation.
import { z } from 'zod'
import {
  openSealedBox,
  sealToKey,
  signEnvelope,
  splitEnvelope,
  type Bytes,
  type MemberKeys,
  type Roster,
} from '../crypto'
import { MemberIdSchema } from '../crypto/schemas'
import { signedByRosterDesktop } from '../renewal/credential-envelope'
import { RenewalsSchema, type Renewals } from './state'

const INFO = 'ask-user/v1/desk-records'
const aad = (writer: string, to: string): Uint8Array => new TextEncoder().encode(`${INFO}|${writer}|${to}`)
const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')

/** What the desktops share: the devices' credential records and the revocations (as in relay-renewals.json). */
export const DeskRecordsSchema = z.strictObject({
  v: z.literal(1),
  devices: RenewalsSchema.shape.devices,
  revoked: z.record(z.string(), z.int().min(0)),
})
export type DeskRecords = z.infer<typeof DeskRecordsSchema>

/** The signed, stored part: who wrote it and one sealed copy per desktop of the roster. */
const StoredDeskRecordsSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('desk-records'),
  writer: MemberIdSchema,
  boxes: z
    .array(z.strictObject({ to: MemberIdSchema, enc: Base64url, ct: Base64url }))
    .min(1)
    .max(64),
})

const encode = (value: unknown): Bytes => new Uint8Array(new TextEncoder().encode(JSON.stringify(value)))

/** The shared part of a home's renewals record. */
export function deskRecordsOf(renewals: Renewals): DeskRecords {
  return { v: 1, devices: { ...renewals.devices }, revoked: { ...renewals.revoked } }
}

/**
 * The union of `a` and `b`: every device (the record with the later expiry when both have one), every
 * revocation (the later time), and no device whose nkey is revoked.
 */
export function mergeDeskRecords(a: DeskRecords, b: DeskRecords | undefined): DeskRecords {
  const revoked = { ...a.revoked }
  for (const [user, at] of Object.entries(b?.revoked ?? {})) revoked[user] = Math.max(at, revoked[user] ?? 0)
  const devices: DeskRecords['devices'] = {}
  for (const source of [a.devices, b?.devices ?? {}]) {
    for (const [id, record] of Object.entries(source)) {
      if (revoked[record.nkey] !== undefined) continue
      const held = devices[id]
      if (held === undefined || record.expiresAt > held.expiresAt) devices[id] = record
    }
  }
  return { v: 1, devices, revoked }
}

/** The bytes `writer` stores: `records` sealed to each desktop of `roster`, signed by `writer`. */
export async function sealDeskRecords(writer: MemberKeys, roster: Roster, records: DeskRecords): Promise<Uint8Array> {
  const plain = encode(DeskRecordsSchema.parse(records))
  const desktops = roster.members.filter((member) => member.role === 'desktop')
  const boxes = await Promise.all(
    desktops.map(async (desktop) => ({
      to: desktop.id,
      ...(await sealToKey(desktop.hpkePublic, INFO, aad(writer.member.id, desktop.id), plain)),
    })),
  )
  const stored = StoredDeskRecordsSchema.parse({ v: 1, t: 'desk-records', writer: writer.member.id, boxes })
  return signEnvelope(writer.signing, encode(stored))
}

/**
 * Opens stored records on desktop `reader` against its verified `roster`. Resolves undefined when they
 * are malformed, not signed by a desktop of the roster (the relay or someone else wrote them), or not
 * sealed to this desktop: the caller then writes its own records over them, losing nothing it holds.
 */
export async function openDeskRecords(
  reader: MemberKeys,
  roster: Roster,
  stored: Uint8Array,
): Promise<DeskRecords | undefined> {
  const split = splitEnvelope(new Uint8Array(stored))
  const outer = StoredDeskRecordsSchema.safeParse(split === undefined ? undefined : parseJson(split.content))
  if (split === undefined || !outer.success) return undefined
  if (!(await signedByRosterDesktop(roster, outer.data.writer, split))) return undefined
  const box = outer.data.boxes.find((candidate) => candidate.to === reader.member.id)
  if (box === undefined) return undefined
  const plain = await openSealedBox(reader.hpkePrivateKey, INFO, aad(outer.data.writer, reader.member.id), box)
  const records = DeskRecordsSchema.safeParse(plain === undefined ? undefined : parseJson(plain))
  return records.success ? records.data : undefined
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return undefined
  }
}
