// Bold that holds in Chinese: with a CJK font that has no bold face (WenQuanYi Micro Hei on Debian),
// reached through the system fallback, Chromium draws a synthetic bold only for weights of 600 and
// more; a 550 "semi-bold" showed Latin bold and Chinese regular (newcomer review L7). So every weight
// in the window's styles is either regular (500 or less) or bold (600 or more). Measured in Chromium
// by test/e2e/page-load.spec.ts.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const RENDERER = join(__dirname, '..', '..', '..', 'renderer', 'src')

function styleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return styleFiles(path)
    return /\.(svelte|css)$/.test(entry.name) ? [path] : []
  })
}

describe('font weights of the question window', () => {
  it('are regular or bold, never the in-between weights that lose their bold in CJK text', () => {
    const between = styleFiles(RENDERER).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/font-weight:\s*(\d+)/g)]
        .filter((match) => Number(match[1]) > 500 && Number(match[1]) < 600)
        .map((match) => `${file.slice(RENDERER.length + 1)}: ${match[0]}`),
    )
    expect(between).toEqual([])
  })

  it('leave bold-less Linux CJK fonts to the system fallback, where Chromium synthesizes bold from 600', () => {
    const css = readFileSync(join(RENDERER, 'app.css'), 'utf8')
    const stack = /--font:([^;]*);/.exec(css)?.[1] ?? ''
    expect(stack).toContain('Noto Sans CJK SC') // has a bold face of its own
    for (const family of ['WenQuanYi', 'Droid Sans Fallback']) expect(stack).not.toContain(family)
  })
})
