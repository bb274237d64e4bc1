// The phone's state when its relay refused it for good (phone/src/bridge/phone-refusals.ts): the bar
// says "Refused by the relay" in the danger colour's class and the banner, an alert, says retrying will
// not help and points at the notice, never "retrying".
import { cleanup, render, screen } from '@testing-library/svelte'
import { afterEach, describe, expect, it } from 'vitest'
import ConnectionStatus from '../../renderer/src/components/ConnectionStatus.svelte'
import SignInBanner from '../../renderer/src/components/SignInBanner.svelte'

afterEach(cleanup)

describe('a phone the relay refused', () => {
  it('says so in the bar and in an alert banner that points at the notice', () => {
    render(ConnectionStatus, { status: 'refused' })
    const bar = screen.getByTestId('connection-status')
    expect(bar.textContent).toBe('Refused by the relay')
    expect(bar.classList.contains('refused')).toBe(true)
    render(SignInBanner, { status: 'refused', access: { kind: 'none' }, port: '', overRelay: true })
    const banner = screen.getByTestId('sign-in')
    expect(banner.getAttribute('role')).toBe('alert')
    expect(banner.textContent).toMatch(
      /^\s*Your relay refused this phone, and retrying will not help: the notice below/,
    )
    expect(banner.textContent).not.toMatch(/retrying\./)
  })
})
