// `npm test` gives the test runners a temp folder of the run (scripts/run-temp.mjs): open to the second
// Unix user of the askpass and attacker tests, the harness CLIs' cache kept in the real temp folder,
// and at the end removed, naming what a test left behind.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { closeRunTemp, openRunTemp } from '../../../scripts/run-temp.mjs'

let real: string
beforeEach(() => {
  real = mkdtempSync(join(tmpdir(), 'ask-user-real-tmp-'))
})
afterEach(() => rmSync(real, { recursive: true, force: true }))

it('points every temp variable at a fresh 0755 folder, and the harness cache at the real temp folder', () => {
  const run = openRunTemp(real, {})
  expect(run.dir.startsWith(join(real, 'ask-user-npm-test-'))).toBe(true)
  expect(statSync(run.dir).mode & 0o777).toBe(0o755)
  expect(run.env).toEqual({
    TMPDIR: run.dir,
    TMP: run.dir,
    TEMP: run.dir,
    ASK_USER_CLIENT_CACHE: join(real, 'ask-user-clients'),
  })
  expect(openRunTemp(real, { ASK_USER_CLIENT_CACHE: '/cache/here' }).env.ASK_USER_CLIENT_CACHE).toBe('/cache/here')
})

it('at the end removes the folder and names what a test left, not the runners own caches', () => {
  const run = openRunTemp(real, {})
  mkdirSync(join(run.dir, 'playwright-transform-cache-0'))
  expect(closeRunTemp(run.dir)).toEqual([])
  const again = openRunTemp(real, {})
  mkdirSync(join(again.dir, 'ask-user-forgotten-abc123'))
  writeFileSync(join(again.dir, 'stray.log'), '')
  expect(closeRunTemp(again.dir).sort()).toEqual(['ask-user-forgotten-abc123', 'stray.log'])
  expect(() => statSync(again.dir)).toThrow()
})
