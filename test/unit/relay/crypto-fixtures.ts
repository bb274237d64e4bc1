// Shared set-up for the relay/crypto tests: a root, an agent, devices, and a signed, verified roster.
import { expect } from 'vitest'
import { isRelayCryptoError, type RelayCryptoCode } from '../../../relay/crypto/errors'
import {
  generateMemberIdentity,
  generateRootIdentity,
  loadMemberKeys,
  loadRootKeys,
  type MemberKeys,
  type RootKeys,
} from '../../../relay/crypto/keys'
import { signRoster, verifyRoster } from '../../../relay/crypto/roster'
import type { MemberRole, Roster } from '../../../relay/crypto/schemas'

/** A fixed clock for roster times (ms): 2026-12-04T00:00:00Z. */
export const NOW = Date.UTC(2026, 11, 4)

/** A freshly generated member, loaded as it would be from its own key file. */
export async function makeMember(name: string, role: MemberRole): Promise<MemberKeys> {
  const { secret } = await generateMemberIdentity(name, role)
  return loadMemberKeys(JSON.parse(JSON.stringify(secret)))
}

/** A root key, an agent, `deviceCount` answering members (the first is the desktop) and roster v1 listing them all. */
export async function makeInbox(
  deviceCount: number,
): Promise<{ root: RootKeys; rootPublic: string; agent: MemberKeys; devices: MemberKeys[]; roster: Roster }> {
  const rootIdentity = await generateRootIdentity()
  const root = await loadRootKeys(rootIdentity.secret)
  const agent = await makeMember('ci-nightly', 'agent')
  const devices: MemberKeys[] = []
  for (let index = 0; index < deviceCount; index += 1) {
    devices.push(await makeMember(index === 0 ? 'desk' : `phone ${index}`, index === 0 ? 'desktop' : 'device'))
  }
  const signed = await signRoster(root, {
    version: 1,
    members: [agent.member, ...devices.map((device) => device.member)],
    now: NOW,
  })
  const roster = await verifyRoster(signed.bytes, signed.signature, root.publicKey, { highestSeenVersion: 0, now: NOW })
  return { root, rootPublic: rootIdentity.publicKey, agent, devices, roster }
}

/** Awaits `promise` and asserts it rejects with a RelayCryptoError of `code`; returns the message. */
export async function expectRefusal(promise: Promise<unknown>, code: RelayCryptoCode): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(isRelayCryptoError(error) ? error.code : error).toBe(code)
  return (error as Error).message
}

/** The code a promise rejects with, or 'ACCEPTED' when it resolves. */
export async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ACCEPTED',
    (reason: unknown) => (isRelayCryptoError(reason) ? reason.code : `UNEXPECTED ${String(reason)}`),
  )
}

/** A copy of `bytes` with bit `bit` of byte `index` flipped. */
export function flipBit(bytes: Uint8Array, index: number, bit: number): Uint8Array {
  const copy = new Uint8Array(bytes)
  copy[index] = copy[index]! ^ (1 << bit)
  return copy
}

/** The signed content of an envelope, parsed (for tests that rewrite it). */
export function envelopeContent(bytes: Uint8Array): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.byteLength - 64))) as Record<string, unknown>
}
