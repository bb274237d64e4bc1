// The phone's pairing screen opened without a pairing link: it says where the code comes from, and in
// the iPhone's Home Screen app also that a pairing made in a Safari tab may not be seen there, so the
// person pairs again in the app instead of waiting for an inbox that never comes.
import { cleanup, render, screen } from '@testing-library/svelte'
import { afterEach, describe, expect, it } from 'vitest'
import PairScreen from '../../phone/src/pairing/PairScreen.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'

afterEach(cleanup)

describe('the pairing screen without a pairing link', () => {
  it('in the iPhone Home Screen app says to pair again there, in both languages', () => {
    i18n.lang = 'en'
    render(PairScreen, { props: { iosHomeScreenApp: true } })
    expect(screen.getByTestId('pair-screen').dataset['step']).toBe('no-offer')
    expect(screen.getByTestId('pair-again-here').textContent).toBe(
      'If you paired this phone in Safari, pair again here: the Home Screen app may not see a pairing made in a Safari tab.',
    )
    cleanup()
    i18n.lang = 'zh'
    render(PairScreen, { props: { iosHomeScreenApp: true } })
    expect(screen.getByTestId('pair-again-here').textContent).toBe(
      '如果你在 Safari 中配对过这部手机，请在这里重新配对：主屏幕应用可能看不到在 Safari 标签页中完成的配对。',
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
