#!/usr/bin/env node
// Draws the app and tray icons with plain Node (no image libraries) and writes them as PNGs beside this
// script: `node build/make-icons.mjs`. The PNGs are committed; rerun only when the drawing changes.
//
//   icon.png                       512 px app icon (electron-builder derives .icns/.ico from it)
//   ../phone/public/icon-*.png     the phone app's icons (192, 512, maskable 512, apple-touch 180)
//   tray/trayTemplate[@2x].png     macOS menu bar: black glyph, a template image (macOS tints it for light/dark bars)
//   tray/tray-light[@2x].png       Windows/Linux, light bars: dark glyph
//   tray/tray-dark[@2x].png        Windows/Linux, dark bars: light glyph
//   tray/tray-{light,dark}-pending[@2x].png   the same with a red dot: asks are waiting
//   tray/overlay[@2x].png          Windows taskbar overlay: a red dot
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'

const here = import.meta.dirname

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes) {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 8 + data.length)
  return out
}
/** Encodes RGBA pixels (Uint8Array, size*size*4) as a PNG. */
function png(size, rgba) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8-bit RGBA, no interlace
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0 // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

// Shapes in unit coordinates (0..1, y down).
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r)
  const cy = Math.min(Math.max(y, y0 + r), y1 - r)
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1
}
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r
const triangle = (a, b, c) => (x, y) => {
  const s = (p, q) => (x - q[0]) * (p[1] - q[1]) - (p[0] - q[0]) * (y - q[1])
  const d1 = s(a, b),
    d2 = s(b, c),
    d3 = s(c, a)
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0))
}
const any =
  (...shapes) =>
  (x, y) =>
    shapes.some((s) => s(x, y))

// The glyph: a speech bubble with three dots cut out ("someone is waiting for you").
const bubble = any(roundRect(0.06, 0.1, 0.94, 0.72, 0.2), triangle([0.22, 0.66], [0.2, 0.94], [0.5, 0.68]))
const dots = any(circle(0.3, 0.41, 0.075), circle(0.5, 0.41, 0.075), circle(0.7, 0.41, 0.075))
const glyph = (x, y) => bubble(x, y) && !dots(x, y)
const badge = circle(0.8, 0.22, 0.2)
const badgeGap = circle(0.8, 0.22, 0.29)

/** Rasterizes `paint(x, y) → [r,g,b,a] | undefined` at `size` px with 4×4 supersampling. */
function raster(size, paint) {
  const out = new Uint8Array(size * size * 4)
  const n = 4
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = paint((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size)
          if (c) {
            r += c[0] * c[3]
            g += c[1] * c[3]
            b += c[2] * c[3]
            a += c[3]
          }
        }
      }
      const i = (py * size + px) * 4
      if (a > 0) {
        out[i] = Math.round(r / a)
        out[i + 1] = Math.round(g / a)
        out[i + 2] = Math.round(b / a)
      }
      out[i + 3] = Math.round(a / (n * n))
    }
  }
  return out
}

const RED = [229, 57, 53, 255]
const trayPaint = (color, pending) => (x, y) => {
  if (pending && badge(x, y)) return RED
  if (pending && badgeGap(x, y)) return undefined
  return glyph(x, y) ? color : undefined
}

const appPaint = (x, y) => {
  if (!roundRect(0.04, 0.04, 0.96, 0.96, 0.2)(x, y)) return undefined
  // a vertical indigo gradient behind a white bubble with indigo dots
  const t = y
  const bg = [Math.round(92 - 40 * t), Math.round(107 - 45 * t), Math.round(246 - 60 * t), 255]
  const u = (x - 0.5) / 0.72 + 0.5,
    v = (y - 0.5) / 0.72 + 0.5
  if (bubble(u, v)) return dots(u, v) ? bg : [255, 255, 255, 255]
  return bg
}

// The phone app's maskable icon: the background fills the square (the launcher cuts its own shape) and
// the bubble stays inside the middle 80%, the safe zone every mask keeps.
const maskablePaint = (x, y) => {
  const t = y
  const bg = [Math.round(92 - 40 * t), Math.round(107 - 45 * t), Math.round(246 - 60 * t), 255]
  const u = (x - 0.5) / 0.6 + 0.5,
    v = (y - 0.5) / 0.6 + 0.5
  if (bubble(u, v)) return dots(u, v) ? bg : [255, 255, 255, 255]
  return bg
}

function write(name, size, paint) {
  const path = join(here, name)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, png(size, raster(size, paint)))
}

write('icon.png', 512, appPaint)
// The phone app (phone/public, served beside its manifest): Android's launcher sizes, and iOS's
// Home Screen icon, which must be opaque.
write('../phone/public/icon-192.png', 192, appPaint)
write('../phone/public/icon-512.png', 512, appPaint)
write('../phone/public/icon-maskable-512.png', 512, maskablePaint)
write('../phone/public/apple-touch-icon.png', 180, maskablePaint)
for (const [scale, suffix] of [
  [1, ''],
  [2, '@2x'],
]) {
  const size = 16 * scale
  write(`tray/trayTemplate${suffix}.png`, size, trayPaint([0, 0, 0, 255], false))
  write(`tray/tray-light${suffix}.png`, size, trayPaint([34, 34, 34, 255], false))
  write(`tray/tray-dark${suffix}.png`, size, trayPaint([240, 240, 240, 255], false))
  write(`tray/tray-light-pending${suffix}.png`, size, trayPaint([34, 34, 34, 255], true))
  write(`tray/tray-dark-pending${suffix}.png`, size, trayPaint([240, 240, 240, 255], true))
  write(`tray/overlay${suffix}.png`, size, (x, y) => (circle(0.5, 0.5, 0.45)(x, y) ? RED : undefined))
}
console.log('icons written to', here)
