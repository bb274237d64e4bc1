import type { Result } from '../shared/error-codes'
import { isRecord } from '../shared/is-record'

/** The message for a text frame that is not JSON (agents get it as `INVALID_FRAME`, windows as `rejected`). */
export const NOT_JSON_MESSAGE = 'the frame is not valid JSON'

/** The message for a binary frame, which neither the agent endpoint nor the UI channel accepts. */
export const BINARY_FRAME_MESSAGE = 'binary frames are not supported; send JSON text frames'

/** A frame read so far: the decoded value, or why it is refused (`INVALID_FRAME`). */
export type FrameRead<T> = Result<T, 'INVALID_FRAME'>

/** Decodes a text frame as JSON. Never throws. */
export function decodeJson(text: string): FrameRead<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, code: 'INVALID_FRAME', message: NOT_JSON_MESSAGE }
  }
}

/** Parses a text frame that must hold one JSON object with a string `type`. Never throws. */
export function parseJsonFrame(text: string): FrameRead<Record<string, unknown>> {
  const decoded = decodeJson(text)
  return decoded.ok ? checkObjectFrame(decoded.value) : decoded
}

/** Checks that a decoded frame is a plain object with a string `type`. */
export function checkObjectFrame(value: unknown): FrameRead<Record<string, unknown>> {
  if (!isRecord(value)) return { ok: false, code: 'INVALID_FRAME', message: 'a frame must be a JSON object' }
  if (typeof value['type'] !== 'string')
    return { ok: false, code: 'INVALID_FRAME', message: 'a frame needs a string "type"' }
  return { ok: true, value }
}
