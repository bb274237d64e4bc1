// Bodies are padded before sealing so the relay learns sizes only in 512-byte steps (RELAY.md §4.5).
// ISO/IEC 7816-4 style: one 0x80 byte, then zeros up to the step.

import type { Bytes } from './encoding'

/** The step sealed bodies are padded to, in bytes. */
export const PADDING_STEP = 512

/** `body` followed by 0x80 and zeros up to the next multiple of {@link PADDING_STEP}. */
export function pad(body: Bytes): Bytes {
  const length = Math.ceil((body.byteLength + 1) / PADDING_STEP) * PADDING_STEP
  const out = new Uint8Array(length)
  out.set(body)
  out[body.byteLength] = 0x80
  return out
}

/** The body inside a padded buffer, or `undefined` when the padding is not well formed. */
export function unpad(padded: Bytes): Bytes | undefined {
  let end = padded.byteLength - 1
  while (end >= 0 && padded[end] === 0) end -= 1
  if (end < 0 || padded[end] !== 0x80) return undefined
  return padded.subarray(0, end)
}
