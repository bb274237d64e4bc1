// The CSP per build, as built: the Electron page allows no loopback WebSocket, the browser page does.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PAGE_FILES, pageCsp } from '../../../shared/csp'
import { ensureRendererBuilt, RENDERER_DIR } from '../../e2e/support/build'

const metaCsp = (file: string): string | undefined =>
  /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(
    readFileSync(join(RENDERER_DIR, file), 'utf8'),
  )?.[1]

beforeAll(() => ensureRendererBuilt(), 120_000)

describe('the page CSP of each build', () => {
  it('the Electron build (index.html) connects nowhere but itself', () => {
    expect(metaCsp(PAGE_FILES.electron)).toBe(pageCsp('electron', 'meta'))
    expect(metaCsp(PAGE_FILES.electron)).not.toContain('ws:')
  })

  it('the browser build (web.html) may reach the companion over loopback ws: only', () => {
    expect(metaCsp(PAGE_FILES.web)).toBe(pageCsp('web', 'meta'))
    expect(pageCsp('web', 'meta')).toContain("connect-src 'self' ws://127.0.0.1:* ws://localhost:*;")
    expect(pageCsp('web', 'header')).not.toContain('[::1]')
  })

  it('keeps frame-ancestors to the headers: a meta tag cannot carry it (Chromium logs an error)', () => {
    for (const target of ['electron', 'web'] as const) {
      expect(metaCsp(PAGE_FILES[target])).not.toContain('frame-ancestors')
      expect(pageCsp(target, 'header')).toContain("frame-ancestors 'none'")
    }
  })

  it('both load images from the page itself only, and scripts without eval', () => {
    for (const target of ['electron', 'web'] as const) {
      for (const delivery of ['header', 'meta'] as const) {
        expect(pageCsp(target, delivery)).toContain("img-src 'self';")
        expect(pageCsp(target, delivery)).toContain("script-src 'self';")
        expect(pageCsp(target, delivery)).not.toContain('unsafe-eval')
        expect(pageCsp(target, delivery)).not.toContain('data:')
      }
    }
  })
})
