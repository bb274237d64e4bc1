// "Add a phone" in the Relay view: the served page only says where it is done; the desktop window starts
// a pairing through its IPC calls, draws the link as a QR code from path data (never the link as text,
// never markup from a string), then asks "Pair ‘name’?" with the code, and shows an alarm as one.
import { cleanup, render, screen } from '@testing-library/svelte'
import { userEvent } from '@testing-library/user-event'
import { encode } from 'uqr'
import { afterEach, describe, expect, it, vi } from 'vitest'
import PhonePairing from '../../renderer/src/components/PhonePairing.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { qrPath } from '../../renderer/src/lib/qr-path'
import type { PhonePairingCalls } from '../../shared/bridge'
import type { PhonePairState } from '../../shared/ipc'

afterEach(cleanup)

const PAIR_ID = 'pairpairpairpairpair01'
const LINK = `https://app.example/#pair=${'eyJ2IjoxLCJ1cmwiOiJ3c3M6Ly9yZWxheS5leGFtcGxlIn0'.repeat(20)}`

function fakePairing() {
  let emit: (state: PhonePairState) => void = () => undefined
  const calls: PhonePairingCalls = {
    start: vi.fn(),
    decide: vi.fn(),
    onState: (listener) => ((emit = listener), () => (emit = () => undefined)),
  }
  return { calls, emit: (state: PhonePairState) => emit(state) }
}

describe('Add a phone', () => {
  it('in the served page only says it is done in the desktop window', () => {
    i18n.lang = 'en'
    render(PhonePairing, { props: {} })
    expect(screen.getByTestId('phone-pairing-served').textContent).toBe(
      'A phone is added in the desktop app’s window (Relay → Add a phone), never from a web page.',
    )
    expect(screen.queryByTestId('phone-pairing-start')).toBeNull()
  })

  it('shows the QR code of the link (from path data, the link never as text), then the name and code', async () => {
    i18n.lang = 'en'
    const pairing = fakePairing()
    const { container } = render(PhonePairing, { props: { pairing: pairing.calls } })
    const user = userEvent.setup()
    await user.click(screen.getByTestId('phone-pairing-start'))
    expect(pairing.calls.start).toHaveBeenCalledOnce()
    pairing.emit({ state: 'offer', pairId: PAIR_ID, link: LINK, expiresAt: Date.UTC(2026, 11, 4, 9, 35) })
    const svg = await screen.findByTestId('phone-pairing-qr')
    const size = encode(LINK, { ecc: 'L', border: 4 }).size
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${size} ${size}`)
    expect(svg.querySelector('path')!.getAttribute('d')).toBe(qrPath(LINK).d)
    expect(container.textContent).not.toContain('#pair=')
    pairing.emit({ state: 'confirm', pairId: PAIR_ID, name: 'Pixel 8', code: '042137' })
    expect((await screen.findByTestId('phone-pairing-question')).textContent).toBe('Pair “Pixel 8”?')
    expect(screen.getByTestId('phone-pairing-code').textContent).toBe('Code 042137')
    await user.click(screen.getByTestId('phone-pairing-confirm'))
    expect(pairing.calls.decide).toHaveBeenCalledWith(PAIR_ID, true)
    pairing.emit({ state: 'paired', pairId: PAIR_ID, name: 'Pixel 8' })
    expect((await screen.findByTestId('phone-pairing-done')).textContent).toBe(
      '“Pixel 8” is paired and listed under Devices.',
    )
  })

  it('shows a second request as an alarm, and ignores states of a pairing it no longer shows', async () => {
    i18n.lang = 'en'
    const pairing = fakePairing()
    render(PhonePairing, { props: { pairing: pairing.calls } })
    const user = userEvent.setup()
    await user.click(screen.getByTestId('phone-pairing-start'))
    pairing.emit({ state: 'offer', pairId: PAIR_ID, link: LINK, expiresAt: Date.now() + 60_000 })
    pairing.emit({ state: 'confirm', pairId: 'anotherpairanotherpair', name: 'Old', code: '111111' })
    expect(screen.queryByTestId('phone-pairing-question')).toBeNull()
    pairing.emit({
      state: 'stopped',
      pairId: PAIR_ID,
      code: 'RELAY_PAIR_SECOND_REQUEST',
      message: 'ALARM: a second device answered the same pairing line.',
      alarm: true,
    })
    const alarm = await screen.findByTestId('phone-pairing-stopped')
    expect(alarm.getAttribute('role')).toBe('alert')
    expect(alarm.classList.contains('alarm')).toBe(true)
    expect(alarm.textContent!.trim()).toBe('ALARM: a second device answered the same pairing line.')
  })

  it('Cancel while the QR is up declines that pairing and hides the code', async () => {
    i18n.lang = 'en'
    const pairing = fakePairing()
    render(PhonePairing, { props: { pairing: pairing.calls } })
    const user = userEvent.setup()
    await user.click(screen.getByTestId('phone-pairing-start'))
    pairing.emit({ state: 'offer', pairId: PAIR_ID, link: LINK, expiresAt: Date.now() + 60_000 })
    await user.click(await screen.findByTestId('phone-pairing-cancel'))
    expect(pairing.calls.decide).toHaveBeenCalledWith(PAIR_ID, false)
    expect(screen.queryByTestId('phone-pairing-qr')).toBeNull()
    expect(screen.getByTestId('phone-pairing-start')).toBeTruthy()
  })
})
