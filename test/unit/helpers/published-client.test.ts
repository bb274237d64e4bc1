// ASK_USER_TEST_SKIP_HARNESSES=1, the quick local run: no harness CLI is downloaded or run, every
// real-binary test skips with a reason that names the variable, and CI never takes the shortcut.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HARNESS_BY_ID } from '../../../integrations/index'
import { harnessSkipReason, installPublished, SKIP_HARNESSES } from '../../helpers/published-client'

const ROOT = join(__dirname, '..', '..', '..')
const REASON = 'ASK_USER_TEST_SKIP_HARNESSES=1 is set: the real harness CLIs are neither downloaded nor run'

describe('ASK_USER_TEST_SKIP_HARNESSES', () => {
  let cache: string | undefined
  afterEach(() => {
    vi.unstubAllEnvs()
    if (cache) rmSync(cache, { recursive: true, force: true })
  })

  it('set to 1: installPublished installs nothing and answers not ok with the reason', async () => {
    cache = mkdtempSync(join(tmpdir(), 'ask-user-client-cache-'))
    vi.stubEnv('ASK_USER_CLIENT_CACHE', cache)
    vi.stubEnv(SKIP_HARNESSES, '1')
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const result = await installPublished(HARNESS_BY_ID['claude-code'].published)
    expect(result).toEqual({ ok: false, reason: REASON })
    expect(readdirSync(cache)).toEqual([]) // no npm install started
    expect(log).toHaveBeenCalledWith(`skipping the real-binary tests: ${REASON}`)
    log.mockRestore()
  })

  it('only the value 1 skips', () => {
    expect(harnessSkipReason({ [SKIP_HARNESSES]: '1' })).toBe(REASON)
    expect(harnessSkipReason({})).toBeUndefined()
    expect(harnessSkipReason({ [SKIP_HARNESSES]: '0' })).toBeUndefined()
    expect(harnessSkipReason({ [SKIP_HARNESSES]: '' })).toBeUndefined()
  })

  it('.ci/run and the CI workflows never set it; both READMEs document it', () => {
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).not.toContain(SKIP_HARNESSES)
    const workflows = join(ROOT, '.github', 'workflows')
    if (existsSync(workflows))
      for (const name of readdirSync(workflows))
        expect(readFileSync(join(workflows, name), 'utf8'), name).not.toContain(SKIP_HARNESSES)
    for (const readme of ['README.md', 'README.zh.md'])
      expect(readFileSync(join(ROOT, readme), 'utf8'), readme).toContain(`${SKIP_HARNESSES}=1`)
  })
})
