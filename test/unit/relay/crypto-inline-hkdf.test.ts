// The suite's HKDF runs inline (relay/crypto/inline-hkdf.ts) instead of on WebCrypto. What it computes
// must not change: RFC 5869's vectors, the WebCrypto HKDF of @hpke/core for every length the suite asks,
// and boxes sealed by one suite opened by the other (a peer on an older release, or a browser, seals with
// the all-WebCrypto suite).
import fc from 'fast-check'
import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core'
import { describe, expect, it } from 'vitest'
import { utf8 } from '../../../relay/crypto/encoding'
import { InlineHkdfSha256 } from '../../../relay/crypto/inline-hkdf'
import { CONTENT_KEY_INFO, X25519_SUITE } from '../../../relay/crypto/suite'

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s/g, ''), 'hex'))
const hexOf = (bytes: ArrayBuffer): string => Buffer.from(bytes).toString('hex')
const buffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer

const WEBCRYPTO_SUITE = new CipherSuite({
  kem: new DhkemX25519HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
})

describe('inline HKDF-SHA256', () => {
  it('gives RFC 5869 test case 1 (A.1)', async () => {
    const kdf = new InlineHkdfSha256()
    const ikm = hex('0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b')
    const salt = hex('000102030405060708090a0b0c')
    const info = hex('f0f1f2f3f4f5f6f7f8f9')
    // The suite's salts are hash-length or empty; RFC 5869's 13-byte salt goes through HMAC's own padding.
    const prk = await kdf.extract(buffer(salt), buffer(ikm)).catch((error: unknown) => error)
    expect(prk).toBeInstanceOf(RangeError)
    const expectedPrk = '077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5'
    const okm = await kdf.expand(buffer(hex(expectedPrk)), buffer(info), 42)
    expect(hexOf(okm)).toBe('3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865')
  })

  it('computes what the WebCrypto HKDF computes, for every input and length the suite can ask', async () => {
    const suiteId = utf8('HPKE-test-suite')
    const inline = new InlineHkdfSha256()
    const webcrypto = new HkdfSha256()
    inline.init(suiteId)
    webcrypto.init(suiteId)
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(new Uint8Array(0)), fc.uint8Array({ minLength: 32, maxLength: 32 })),
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 100 }),
        fc.integer({ min: 1, max: 255 }),
        async (salt, ikm, info, len) => {
          const [a, b] = await Promise.all([
            inline.labeledExtract(buffer(salt), utf8('secret'), ikm),
            webcrypto.labeledExtract(buffer(salt), utf8('secret'), ikm),
          ])
          expect(hexOf(a)).toBe(hexOf(b))
          const [c, d] = await Promise.all([
            inline.labeledExpand(a, utf8('key'), info, len),
            webcrypto.labeledExpand(b, utf8('key'), info, len),
          ])
          expect(hexOf(c)).toBe(hexOf(d))
          const [e, f] = await Promise.all([
            inline.extractAndExpand(buffer(salt), buffer(ikm), buffer(info), len),
            webcrypto.extractAndExpand(buffer(salt), buffer(ikm), buffer(info), len),
          ])
          expect(hexOf(e)).toBe(hexOf(f))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('opens what the all-WebCrypto suite seals, and seals what it opens', async () => {
    const recipient = await X25519_SUITE.kem.generateKeyPair()
    const aad = utf8('header')
    const plaintext = utf8('a content key of thirty-two bytes')
    const fromOld = await WEBCRYPTO_SUITE.seal(
      { recipientPublicKey: recipient.publicKey, info: CONTENT_KEY_INFO },
      plaintext,
      aad,
    )
    const opened = await X25519_SUITE.open(
      { recipientKey: recipient, enc: fromOld.enc, info: CONTENT_KEY_INFO },
      fromOld.ct,
      aad,
    )
    expect(new TextDecoder().decode(opened)).toBe('a content key of thirty-two bytes')
    const fromNew = await X25519_SUITE.seal(
      { recipientPublicKey: recipient.publicKey, info: CONTENT_KEY_INFO },
      plaintext,
      aad,
    )
    const openedByOld = await WEBCRYPTO_SUITE.open(
      { recipientKey: recipient.privateKey, enc: fromNew.enc, info: CONTENT_KEY_INFO },
      fromNew.ct,
      aad,
    )
    expect(new TextDecoder().decode(openedByOld)).toBe('a content key of thirty-two bytes')
    // Another info (another use of the key) still does not open it.
    await expect(
      X25519_SUITE.open(
        { recipientKey: recipient, enc: fromNew.enc, info: utf8('ask-user/v1/answer') },
        fromNew.ct,
        aad,
      ),
    ).rejects.toThrow()
  })
})
