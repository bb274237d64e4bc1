// The phone's pairing screen opened without a pairing link: it says where the code comes from, and in
// the iPhone's Home Screen app also that a pairing made in a Safari tab may not be seen there, so the
// person pairs again in the app instead of waiting for an inbox that never comes.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte'
import { afterEach, describe, expect, it } from 'vitest'
import PairScreen from '../../phone/src/pairing/PairScreen.svelte'
import { generateRootIdentity } from '../../relay/crypto'
import { createPairOffer, formatPairLink } from '../../relay/pairing/offer'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'

afterEach(cleanup)

describe('the pairing screen without a pairing link', () => {
  it('in the iPhone Home Screen app says to pair again there, in both languages', () => {
    i18n.lang = 'en'
    render(PairScreen, { props: { iosHomeScreenApp: true } })
    expect(screen.getByTestId('pair-screen').dataset['step']).toBe('no-offer')
    expect(screen.getByTestId('pair-again-here').textContent).toBe(
      'The camera opens the code’s link in Safari, not in this app, and a pairing made in a Safari tab may not reach the Home Screen app. So in the Camera, touch and hold the link under the code, choose Copy Link, and paste it below.',
    )
    cleanup()
    i18n.lang = 'zh'
    render(PairScreen, { props: { iosHomeScreenApp: true } })
    expect(screen.getByTestId('pair-again-here').textContent).toBe(
      '相机会在 Safari 中打开二维码的链接，而不是在这个应用中；在 Safari 标签页中完成的配对，主屏幕应用可能看不到。因此请在相机中按住二维码下方的链接，选择“拷贝链接”，然后粘贴到下面。',
    )
    i18n.lang = 'en'
  })

  it('in a browser tab (or on Android) says only where the code comes from', () => {
    i18n.lang = 'en'
    render(PairScreen, { props: { iosHomeScreenApp: false } })
    expect(screen.getByTestId('pair-no-offer')).toBeTruthy()
    expect(screen.queryByTestId('pair-again-here')).toBeNull()
  })
})

/** A pairing link as the desktop's QR code carries it, issued `ageMs` ago (offers live 5 minutes). */
async function aLink(ageMs = 0): Promise<string> {
  const root = await generateRootIdentity()
  const offer = createPairOffer({
    url: 'wss://relay.example:8443',
    rootPublicKey: root.publicKey,
    pairId: 'pairpairpairpairpair01',
    creds: 'creds-text',
    now: Date.now() - ageMs,
  })
  return formatPairLink('https://app.example/', offer)
}

describe('a pasted pairing link (the iPhone camera opens links in Safari, never in the Home Screen app)', () => {
  async function paste(text: string): Promise<void> {
    render(PairScreen, { props: { iosHomeScreenApp: true } })
    await fireEvent.input(screen.getByTestId('pair-link'), { target: { value: text } })
    await fireEvent.submit(screen.getByTestId('pair-paste'))
  }

  it('starts the pairing as the scanned link would: the name step, and the field emptied', async () => {
    i18n.lang = 'en'
    await paste(`  ${await aLink()}\n`)
    expect(screen.getByTestId('pair-screen').dataset['step']).toBe('naming')
    expect(screen.getByTestId('pair-name')).toBeTruthy()
    expect(screen.queryByTestId('pair-link')).toBeNull()
  })

  it('refuses text without an offer, and an expired link, each with its reason', async () => {
    i18n.lang = 'en'
    await paste('https://app.example/')
    expect(screen.getByTestId('pair-stopped').textContent?.trim()).toContain('This pairing link is damaged')
    cleanup()
    await paste(await aLink(6 * 60_000))
    expect(screen.getByTestId('pair-stopped').textContent?.trim()).toContain('expired')
  })

  it('offers the field only while there is nothing to pair: the button waits for text', async () => {
    render(PairScreen, { props: { iosHomeScreenApp: false } })
    expect((screen.getByTestId('pair-link-use') as HTMLButtonElement).disabled).toBe(true)
  })
})
