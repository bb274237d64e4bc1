import { describe, expect, it } from 'vitest'
import { checkObjectFrame, decodeJson, parseJsonFrame } from '../../../core/frames'

describe('frames', () => {
  it('parses JSON objects with a string type', () => {
    expect(parseJsonFrame('{"type":"x","a":1}')).toEqual({ ok: true, value: { type: 'x', a: 1 } })
    expect(parseJsonFrame('nope')).toEqual({ ok: false, code: 'INVALID_FRAME', message: 'the frame is not valid JSON' })
    expect(parseJsonFrame('null')).toEqual({
      ok: false,
      code: 'INVALID_FRAME',
      message: 'a frame must be a JSON object',
    })
    expect(parseJsonFrame('{"type":1}')).toEqual({
      ok: false,
      code: 'INVALID_FRAME',
      message: 'a frame needs a string "type"',
    })
  })

  it('decodes JSON of any kind, and checks decoded values the same way', () => {
    expect(decodeJson('[1]')).toEqual({ ok: true, value: [1] })
    expect(decodeJson('{')).toEqual({ ok: false, code: 'INVALID_FRAME', message: 'the frame is not valid JSON' })
    expect(checkObjectFrame([1])).toEqual({
      ok: false,
      code: 'INVALID_FRAME',
      message: 'a frame must be a JSON object',
    })
    expect(checkObjectFrame({ type: 'y' })).toEqual({ ok: true, value: { type: 'y' } })
  })
})
