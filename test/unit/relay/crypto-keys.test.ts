import { describe, expect, it } from 'vitest'
import {
  generateMemberIdentity,
  generateRootIdentity,
  loadMemberKeys,
  loadRootKeys,
  memberIdFor,
  rootFromRecoveryCode,
} from '../../../relay/crypto/keys'
import { fromBase64url, toBase64url } from '../../../relay/crypto/encoding'
import { recoveryCodeFromSeed, seedFromRecoveryCode } from '../../../relay/crypto/recovery-code'
import { MemberSchema } from '../../../relay/crypto/schemas'
import { signBytes, signingKeyFromSeed, verifyBytes } from '../../../relay/crypto/signing'
import { expectRefusal } from './crypto-fixtures'

describe('member identities', () => {
  it('exports a zod-valid public record whose id names its signing key, and loads back from the stored secret', async () => {
    const { member, secret } = await generateMemberIdentity('Pixel 8', 'device')
    expect(MemberSchema.parse(member)).toEqual(member)
    expect(member).toMatchObject({ name: 'Pixel 8', role: 'device', suite: 'x25519-ed25519' })
    expect(member.id).toBe(await memberIdFor(fromBase64url(member.signPublic)!))
    // The public record carries no private material.
    expect(JSON.stringify(member)).not.toContain(secret.signSeed)
    expect(JSON.stringify(member)).not.toContain(secret.hpkePrivate)
    const keys = await loadMemberKeys(JSON.parse(JSON.stringify(secret)))
    expect(keys.member).toEqual(member)
    const signature = await signBytes(keys.signing, new Uint8Array([1, 2, 3]))
    expect(await verifyBytes(fromBase64url(member.signPublic)!, signature, new Uint8Array([1, 2, 3]))).toBe(true)
    expect(await verifyBytes(fromBase64url(member.signPublic)!, signature, new Uint8Array([1, 2, 4]))).toBe(false)
  })

  it('refuses an Ed25519 seed of the wrong size once (KEY_INVALID), leaving no rejection unhandled', async () => {
    // Vitest fails the run on an unhandled rejection: a second refusal left behind would show there.
    await expectRefusal(signingKeyFromSeed(new Uint8Array(31)), 'KEY_INVALID')
  })

  it('refuses a key file whose private keys do not match its public record (KEY_INVALID)', async () => {
    const a = await generateMemberIdentity('a', 'device')
    const b = await generateMemberIdentity('b', 'device')
    await expectRefusal(loadMemberKeys({ ...a.secret, hpkePrivate: b.secret.hpkePrivate }), 'KEY_INVALID')
    await expectRefusal(loadMemberKeys({ ...a.secret, signSeed: b.secret.signSeed }), 'KEY_INVALID')
    await expectRefusal(loadMemberKeys({ ...a.secret, member: { ...a.secret.member, id: b.member.id } }), 'KEY_INVALID')
    await expectRefusal(loadMemberKeys({ ...a.secret, extra: 1 }), 'KEY_INVALID')
    await expectRefusal(loadMemberKeys('not json'), 'KEY_INVALID')
  })
})

describe('root identity and its recovery code', () => {
  it('restores the same root key from the printed code, typed in lower case with spaces', async () => {
    const root = await generateRootIdentity()
    expect(root.recoveryCode).toMatch(/^([A-Z2-7]{4}-){13}[A-Z2-7]{4}$/)
    const typed = root.recoveryCode.toLowerCase().replaceAll('-', ' ')
    const restored = await rootFromRecoveryCode(typed)
    expect(restored.keys.publicKey).toBe(root.publicKey)
    expect(restored.secret).toEqual(root.secret)
    expect((await loadRootKeys(root.secret)).publicKey).toBe(root.publicKey)
    // The code does not contain the public key (nothing printed leaks what the relay can see, and vice versa).
    expect(root.recoveryCode.replaceAll('-', '')).not.toContain(root.publicKey.toUpperCase())
  })

  it('catches every single-character typo with the checksum (RECOVERY_CODE_INVALID)', async () => {
    const seed = new Uint8Array(32).map((_, index) => index * 7)
    const code = await recoveryCodeFromSeed(seed)
    expect(toBase64url(await seedFromRecoveryCode(code))).toBe(toBase64url(seed))
    const letters = code.replaceAll('-', '')
    let caught = 0
    for (let index = 0; index < letters.length; index += 1) {
      const replacement = letters[index] === 'A' ? 'B' : 'A'
      const typo = letters.slice(0, index) + replacement + letters.slice(index + 1)
      await expect(seedFromRecoveryCode(typo)).rejects.toThrow(
        expect.objectContaining({ code: 'RECOVERY_CODE_INVALID' }),
      )
      caught += 1
    }
    expect(caught).toBe(56)
    await expect(seedFromRecoveryCode(letters.slice(1))).rejects.toThrow(/56 letters/)
    await expect(seedFromRecoveryCode(letters.slice(1) + '0')).rejects.toThrow(/0\/O/)
  })

  it('refuses a malformed root key file (KEY_INVALID)', async () => {
    await expectRefusal(loadRootKeys({ v: 1, signSeed: 'short' }), 'KEY_INVALID')
  })
})
