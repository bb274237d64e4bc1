import { describe, expect, it } from 'vitest'
import { segmentHidden, withMarkers, withoutHidden } from '../../../../shared/markdown/hidden-chars'

describe('hidden characters become markers naming the code point', () => {
  it('marks the bidi embedding, override and isolate controls everywhere', () => {
    expect(withMarkers('abc\u202Eevil\u202C', 'long')).toBe('abc⟨U+202E⟩evil⟨U+202C⟩')
    expect(withMarkers('\u202A\u202B\u202D\u2066\u2067\u2068\u2069', 'long')).toBe(
      '⟨U+202A⟩⟨U+202B⟩⟨U+202D⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩',
    )
    expect(segmentHidden('a\u202Eb', 'long')).toEqual([{ text: 'a' }, { marker: 'U+202E' }, { text: 'b' }])
  })

  it('marks zero-width space, word joiner and U+FEFF', () => {
    expect(withMarkers('a\u200Bb\u2060c\uFEFF', 'long')).toBe('a⟨U+200B⟩b⟨U+2060⟩c⟨U+FEFF⟩')
  })

  it('keeps ZWJ and ZWNJ everywhere (emoji sequences, Persian, Indic)', () => {
    const family = '👨\u200D👩\u200D👧'
    const persian = 'می\u200Cخواهم'
    expect(segmentHidden(family, 'short')).toEqual([{ text: family }])
    expect(segmentHidden(persian, 'short')).toEqual([{ text: persian }])
  })

  it('marks U+200E, U+200F and U+061C in headers and labels only', () => {
    const rtl = 'שלום\u200F world\u200E \u061C'
    expect(withMarkers(rtl, 'long')).toBe(rtl)
    expect(withMarkers(rtl, 'short')).toBe('שלום⟨U+200F⟩ world⟨U+200E⟩ ⟨U+061C⟩')
  })

  it('keeps an emoji tag sequence and marks tag characters outside one', () => {
    const scotland = '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'
    expect(segmentHidden(scotland, 'short')).toEqual([{ text: scotland }])
    expect(withMarkers('ok\u{E0041}\u{E0042}', 'long')).toBe('ok⟨U+E0041⟩⟨U+E0042⟩')
    expect(withMarkers('🏴\u{E0067}\u{E0062}', 'long')).toBe('🏴⟨U+E0067⟩⟨U+E0062⟩') // no CANCEL TAG
  })

  it('keeps one variation selector after a base character; marks runs and strays', () => {
    expect(segmentHidden('❤\uFE0F 1\uFE0F\u20E3', 'long')).toEqual([{ text: '❤\uFE0F 1\uFE0F\u20E3' }])
    expect(withMarkers('a\uFE0F\uFE0E', 'long')).toBe('a⟨U+FE0F⟩⟨U+FE0E⟩')
    expect(withMarkers('\uFE0Fstart', 'long')).toBe('⟨U+FE0F⟩start')
    expect(withMarkers('x \u{E0100}', 'long')).toBe('x ⟨U+E0100⟩')
    expect(withMarkers('😀\u{E0101}\u{E0102}\u{E0103}', 'long')).toBe('😀⟨U+E0101⟩⟨U+E0102⟩⟨U+E0103⟩')
  })

  it('removes them for notification text', () => {
    expect(withoutHidden('De\u202Eploy\u200B?', 'long')).toBe('Deploy?')
  })
})
