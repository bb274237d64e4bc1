// The phone's pairing link (`<appUrl>#pair=<offer>`) and the browser-ready request: the offer travels
// only in the fragment, and the WebCrypto MAC and code are the very bytes the Node versions made.
import { createUser } from '@nats-io/nkeys'
import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generateRootIdentity } from '../../../../relay/crypto'
import {
  confirmationCode,
  createPairOffer,
  formatPairLink,
  makePairRequest,
  parsePairFragment,
  type PairOffer,
} from '../../../../relay/pairing'
import { makeMember, NOW } from '../crypto-fixtures'

async function anOffer(): Promise<PairOffer> {
  const root = await generateRootIdentity()
  return createPairOffer({
    url: 'wss://relay.example:8443',
    rootPublicKey: root.publicKey,
    pairId: 'pairpairpairpairpair01',
    creds: 'creds-text',
    now: NOW,
  })
}

describe('the pairing link', () => {
  it('carries the offer in the fragment only: no query, nothing of it in the path', async () => {
    const offer = await anOffer()
    const link = formatPairLink('https://app.example/ask-user/', offer)
    const url = new URL(link)
    expect(url.origin + url.pathname).toBe('https://app.example/ask-user/')
    expect(url.search).toBe('')
    expect(url.hash).toMatch(/^#pair=[A-Za-z0-9_-]+$/)
    // What a server or proxy sees (everything before '#') holds no part of the secret or the credential.
    const sent = link.slice(0, link.indexOf('#'))
    expect(sent).not.toContain(offer.secret)
    expect(parsePairFragment(url.hash, NOW)).toEqual(offer)
    expect(parsePairFragment(url.hash.slice(1), NOW)).toEqual(offer)
  })

  it('refuses an app URL that is not https, or has its own query or fragment', async () => {
    const offer = await anOffer()
    for (const appUrl of ['http://app.example/', 'https://app.example/?x=1', 'https://app.example/#x', 'not a url']) {
      expect(() => formatPairLink(appUrl, offer)).toThrow(
        expect.objectContaining({ code: 'RELAY_PAIR_LINE_INVALID', message: expect.stringContaining('relay app-url') }),
      )
    }
    expect(formatPairLink('http://127.0.0.1:5173/', offer)).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#pair=/)
  })

  it('refuses a damaged fragment, another key and an expired offer with their codes', async () => {
    const offer = await anOffer()
    const hash = new URL(formatPairLink('https://app.example/', offer)).hash
    expect(() => parsePairFragment(hash.slice(0, -8), NOW)).toThrow(
      expect.objectContaining({ code: 'RELAY_PAIR_LINE_INVALID' }),
    )
    expect(() => parsePairFragment(hash.replace('pair=', 'pear='), NOW)).toThrow(
      expect.objectContaining({ code: 'RELAY_PAIR_LINE_INVALID' }),
    )
    expect(() => parsePairFragment(hash, offer.expiresAt)).toThrow(
      expect.objectContaining({ code: 'RELAY_PAIR_EXPIRED', message: expect.stringContaining('Add a phone') }),
    )
  })
})

describe('the request in WebCrypto', () => {
  it('makes the MAC and the 6-digit code the Node crypto versions made (terminals of both versions agree)', async () => {
    const offer = await anOffer()
    const device = await makeMember('Pixel 8', 'device')
    const stored = await makePairRequest(offer, device.member, createUser().getPublicKey(), NOW)
    const { body, mac } = JSON.parse(new TextDecoder().decode(stored)) as { body: string; mac: string }
    const secret = Buffer.from(offer.secret, 'base64url')
    expect(mac).toBe(createHmac('sha256', secret).update(body, 'utf8').digest('base64url'))
    const digest = createHash('sha256')
      .update('ask-user-sas-v1')
      .update(secret)
      .update(createHash('sha256').update(stored).digest())
      .update(Buffer.from(offer.rootPublicKey, 'base64url'))
      .digest()
    expect(await confirmationCode(offer, stored)).toBe(String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0'))
  })
})
