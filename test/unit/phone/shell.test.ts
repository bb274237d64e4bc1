// The phone shell's own rules, in Node's WebCrypto (the same API the browsers of the baseline have):
// which browsers it refuses and why, when it shows the Home Screen hint, and how turning on
// notifications stops before the relay is dialled (permission, Push API; the roster's VAPID key against
// a real relay: push-subscribe.test.ts).
import { describe, expect, it } from 'vitest'
import type { PhoneRecord } from '../../../phone/src/home/phone-record'
import { isIosHomeScreenApp, missingCrypto, needsHomeScreen } from '../../../phone/src/shell/baseline'
import { subscribeToPush, type PushHost } from '../../../phone/src/shell/push-subscribe'
import { pushSetupCode } from './push-setup-code'
import {
  generateMemberIdentity,
  generateRootIdentity,
  loadRootKeys,
  signRoster,
  toBase64url,
} from '../../../relay/crypto'

const noRelay = () => Promise.reject(new Error('the test never dials the relay'))

async function phoneRecord(): Promise<PhoneRecord> {
  const root = await generateRootIdentity()
  const phone = await generateMemberIdentity('Pixel', 'device')
  const desktop = await generateMemberIdentity('desk', 'desktop')
  const signed = await signRoster(await loadRootKeys(root.secret), {
    version: 2,
    members: [desktop.member, phone.member],
    now: Date.now(),
  })
  return {
    v: 1,
    url: 'ws://127.0.0.1:1',
    rootPublicKey: root.publicKey,
    secret: phone.secret,
    creds: 'creds',
    natsName: phone.member.id,
    credsExpiresAt: Math.floor(Date.now() / 1000) + 600,
    roster: { bytes: toBase64url(signed.bytes), signature: toBase64url(signed.signature) },
    highestRosterVersion: 2,
  }
}

const host = (permission: NotificationPermission, registration?: object): PushHost => ({
  requestPermission: () => Promise.resolve(permission),
  registration: () => Promise.resolve(registration as ServiceWorkerRegistration | undefined),
})

describe('the browser baseline', () => {
  it('accepts a WebCrypto with X25519 and Ed25519', async () => {
    expect(await missingCrypto(globalThis.crypto.subtle)).toEqual([])
  })

  it('names what a browser lacks', async () => {
    const noX25519 = {
      generateKey: (algorithm: AlgorithmIdentifier, extractable: boolean, usages: KeyUsage[]) =>
        (algorithm as Algorithm).name === 'X25519'
          ? Promise.reject(new DOMException('unsupported', 'NotSupportedError'))
          : globalThis.crypto.subtle.generateKey(algorithm, extractable, usages),
    } as unknown as SubtleCrypto
    expect(await missingCrypto(noX25519)).toEqual(['X25519'])
    expect(await missingCrypto(undefined)).toEqual(['WebCrypto (the page must be opened over HTTPS)'])
  })

  it('shows the Home Screen step only to an iPhone or iPad in a browser tab', () => {
    const nav = (userAgent: string, standalone?: boolean) =>
      ({ userAgent, platform: '', maxTouchPoints: 5, ...(standalone === undefined ? {} : { standalone }) }) as Navigator
    expect(needsHomeScreen(nav('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)'))).toBe(true)
    expect(needsHomeScreen(nav('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)', true))).toBe(false)
    expect(needsHomeScreen(nav('Mozilla/5.0 (Linux; Android 14; Pixel 8)'))).toBe(false)
    // iPadOS reports itself as a Mac; its touch points give it away.
    expect(needsHomeScreen({ userAgent: 'Macintosh', platform: 'MacIntel', maxTouchPoints: 5 } as Navigator)).toBe(true)
    // The Home Screen app itself (where a Safari tab's pairing may be missing), on iPhone only.
    expect(isIosHomeScreenApp(nav('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)', true))).toBe(true)
    expect(isIosHomeScreenApp(nav('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)'))).toBe(false)
    expect(isIosHomeScreenApp(nav('Mozilla/5.0 (Linux; Android 14; Pixel 8)', true))).toBe(false)
  })
})

describe('turning on notifications', () => {
  it('stops when the person or the browser refuses permission', async () => {
    expect(await pushSetupCode(subscribeToPush(await phoneRecord(), noRelay, host('denied')))).toBe('PUSH_DENIED')
  })

  it('stops where there is no Push API', async () => {
    expect(await pushSetupCode(subscribeToPush(await phoneRecord(), noRelay, host('granted', {})))).toBe(
      'PUSH_UNSUPPORTED',
    )
  })
})
