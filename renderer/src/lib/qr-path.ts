// A QR code as SVG path data, so the window draws it with its own <svg> element: no markup string is
// ever parsed (the window's Trusted Types policy forbids {@html}) and no image URL is needed.
import { encode } from 'uqr'

/** A QR code's modules as one path: `size` is the side in modules, quiet zone included. */
export interface QrPath {
  size: number
  /** One `M x y h1 v1 h-1 z` square per dark module (unit squares in a `0 0 size size` viewBox). */
  d: string
}

/**
 * Encodes `text` (byte mode, error correction L: the pairing link is long, and a screen is clean) with
 * the standard 4-module quiet zone.
 */
export function qrPath(text: string): QrPath {
  const qr = encode(text, { ecc: 'L', border: 4 })
  const squares: string[] = []
  qr.data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) squares.push(`M${x} ${y}h1v1h-1z`)
    }),
  )
  return { size: qr.size, d: squares.join('') }
}
