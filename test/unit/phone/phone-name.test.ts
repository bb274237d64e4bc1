// The phone's default name, guessed from the user agent: the model on Android, else the device kind.
import { describe, expect, it } from 'vitest'
import { defaultPhoneName } from '../../../phone/src/pairing/phone-name'

describe('defaultPhoneName', () => {
  it('takes the Android model, and the device kind on iOS', () => {
    const pixel =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
    expect(defaultPhoneName(pixel)).toBe('Pixel 8')
    const samsung =
      'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014) AppleWebKit/537.36 Chrome/120 Mobile'
    expect(defaultPhoneName(samsung)).toBe('SM-S911B')
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile Safari'
    expect(defaultPhoneName(iphone)).toBe('iPhone')
  })

  it('falls back to "Phone" for a reduced or unknown user agent', () => {
    // Chrome's reduced user agent hides the model as "K".
    expect(defaultPhoneName('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131 Mobile')).toBe('Phone')
    expect(defaultPhoneName('Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0')).toBe('Phone')
    expect(defaultPhoneName('')).toBe('Phone')
  })
})
