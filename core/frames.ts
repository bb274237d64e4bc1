/** The result of reading one text frame as a JSON object. */
export type ParsedFrame = { ok: true; frame: Record<string, unknown> } | { ok: false; message: string }

/** The message for a text frame that is not JSON (agents get it as `INVALID_FRAME`, windows as `rejected`). */
export const NOT_JSON_MESSAGE = 'the frame is not valid JSON'

/** The message for a binary frame, which neither the agent endpoint nor the UI channel accepts. */
export const BINARY_FRAME_MESSAGE = 'binary frames are not supported; send JSON text frames'

/** Decodes a text frame as JSON. Never throws. */
export function decodeJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, message: NOT_JSON_MESSAGE }
  }
}

/** Parses a text frame that must hold one JSON object with a string `type`. Never throws. */
export function parseJsonFrame(text: string): ParsedFrame {
  const decoded = decodeJson(text)
  return decoded.ok ? checkObjectFrame(decoded.value) : decoded
}

/** Checks that a decoded frame is a plain object with a string `type`. */
export function checkObjectFrame(value: unknown): ParsedFrame {
  if (!isRecord(value)) return { ok: false, message: 'a frame must be a JSON object' }
  if (typeof value['type'] !== 'string') return { ok: false, message: 'a frame needs a string "type"' }
  return { ok: true, frame: value }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
