// The relay's NATS login (relay/exchange/creds-authenticator.ts) against nats-core's own
// credsAuthenticator: the same JWT, public nkey and signature of the server's nonce (Ed25519 signatures
// are deterministic, so equal bytes mean the same key signed), with the key pair derived once per
// credential instead of three times per connect (by WebCrypto when the link can wait for it), and the
// nonce signed by WebCrypto when the transport holds the server's INFO for it. Every relay test connects
// to a real nats-server with it.
import { credsAuthenticator } from '@nats-io/nats-core'
import nacl from 'tweetnacl'
import { describe, expect, it, vi } from 'vitest'
import { credsLogin, credsLoginDerivingAhead } from '../../../../relay/exchange/creds-authenticator'
import { credsText } from '../../../helpers/creds-text'

describe('the relay login from a .creds credential', () => {
  it("gives the server what nats-core's credsAuthenticator gives, signature included", async () => {
    const creds = await credsText()
    const ours = credsLogin(creds)
    const theirs = credsAuthenticator(new TextEncoder().encode(creds))
    for (const nonce of ['kZ3Hq0cMsiA', 'another-nonce-value', undefined]) expect(ours(nonce)).toEqual(theirs(nonce))
  })

  it('derives the key pair once per credential, and again only when a renewed credential replaces it', async () => {
    const [first, renewed] = [await credsText(), await credsText()]
    let current = first
    const login = credsLogin(() => current)
    const derive = vi.spyOn(nacl.sign.keyPair, 'fromSeed')
    const signed: Array<ReturnType<typeof login>> = []
    try {
      for (const nonce of ['a', 'b', 'c']) signed.push(login(nonce))
      expect(derive).toHaveBeenCalledTimes(1)
      current = renewed
      signed.push(login('d'))
      expect(derive).toHaveBeenCalledTimes(2)
    } finally {
      derive.mockRestore()
    }
    expect(signed[0]).toEqual(credsAuthenticator(new TextEncoder().encode(first))('a'))
    expect(signed[3]).toEqual(credsAuthenticator(new TextEncoder().encode(renewed))('d'))
    expect((signed[3] as { nkey: string }).nkey).not.toBe((signed[0] as { nkey: string }).nkey)
  })

  it('derived ahead: the public half comes from WebCrypto, so tweetnacl only signs; the same login bytes', async () => {
    const [first, renewed] = [await credsText(), await credsText()]
    const nonces = ['kZ3Hq0cMsiA', 'b', undefined]
    const expected = nonces.map((nonce) => credsAuthenticator(new TextEncoder().encode(first))(nonce))
    const expectedRenewed = credsAuthenticator(new TextEncoder().encode(renewed))('d')
    let current = first
    const derive = vi.spyOn(nacl.sign.keyPair, 'fromSeed')
    const given: unknown[] = []
    try {
      const login = credsLoginDerivingAhead(() => current)
      await login.derived
      for (const nonce of nonces) given.push(login(nonce))
      expect(derive).not.toHaveBeenCalled()
      // A credential renewed after the link opened is derived in place, as credsLogin does.
      current = renewed
      given.push(login('d'))
      expect(derive).toHaveBeenCalledTimes(1)
    } finally {
      derive.mockRestore()
    }
    expect(given).toEqual([...expected, expectedRenewed])
    // Text that is no credential: refused when the server asks, as credsLogin does.
    const broken = credsLoginDerivingAhead('not a creds file')
    await broken.derived
    expect(() => broken('nonce')).toThrow('unable to parse credentials')
  })

  it("signed ahead: WebCrypto's signature of the nonce is the login's, tweetnacl signs only other nonces", async () => {
    const [first, renewed] = [await credsText(), await credsText()]
    const theirs = (creds: string, nonce: string) => credsAuthenticator(new TextEncoder().encode(creds))(nonce)
    const expected = [theirs(first, 'kZ3Hq0cMsiA'), theirs(first, 'other'), theirs(renewed, 'kZ3Hq0cMsiA')]
    const expectedAfter = theirs(renewed, 'n2')
    let current = first
    const sign = vi.spyOn(nacl.sign, 'detached')
    const given: unknown[] = []
    const signedHere: number[] = []
    try {
      const login = credsLoginDerivingAhead(() => current)
      await login.signAhead('kZ3Hq0cMsiA')
      given.push(login('kZ3Hq0cMsiA'))
      signedHere.push(sign.mock.calls.length)
      // Another nonce (a reconnect whose INFO was not held back) is signed here, as before.
      given.push(login('other'))
      signedHere.push(sign.mock.calls.length)
      // A renewed credential: the nonce signed ahead for the old text is not used for the new one.
      current = renewed
      given.push(login('kZ3Hq0cMsiA'))
      signedHere.push(sign.mock.calls.length)
      await login.signAhead('n2')
      given.push(login('n2'))
      signedHere.push(sign.mock.calls.length)
    } finally {
      sign.mockRestore()
    }
    expect(given).toEqual([...expected, expectedAfter])
    expect(signedHere).toEqual([0, 1, 2, 2])
    // Never rejects: text that is no credential is refused when the server asks.
    const broken = credsLoginDerivingAhead('not a creds file')
    await expect(broken.signAhead('nonce')).resolves.toBeUndefined()
    expect(() => broken('nonce')).toThrow('unable to parse credentials')
  })

  it('refuses text that is not a credential, as nats-core does', () => {
    expect(() => credsLogin('not a creds file')('nonce')).toThrow('unable to parse credentials')
    expect(() => credsLogin('-----BEGIN X-----\nonly-one\n------END X------\n')('n')).toThrow(
      'unable to parse credentials',
    )
  })
})
