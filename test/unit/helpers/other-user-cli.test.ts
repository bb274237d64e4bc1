// Tests that act as another Unix user reach what they need wherever the checkout lives: the built CLI
// is copied to a temp folder that user can enter, and a temp folder closed to them is named in the skip.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { copyCliForOtherUsers, type OtherUserCli } from '../../helpers/other-user-cli'
import { folderClosedToOthers, tempFolderClosedReason } from '../../helpers/temp-reach'
import { ROOT } from '../cli/built-cli'

describe('a temp folder closed to other users', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ask-user-reach-'))
    mkdirSync(join(dir, 'inner'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  afterEach(() => vi.unstubAllEnvs())

  it('is found on the way to a path and named in the reason; an open way has none', () => {
    chmodSync(dir, 0o700)
    expect(folderClosedToOthers(join(dir, 'inner'))).toBe(dir)
    vi.stubEnv('TMPDIR', join(dir, 'inner'))
    expect(tempFolderClosedReason()).toBe(
      `${dir} (on the way to the temp folder ${join(dir, 'inner')}) is closed to other users (no o+x); ` +
        'set TMPDIR to a folder they can enter',
    )
    chmodSync(dir, 0o755)
    expect(folderClosedToOthers(join(dir, 'inner'))).toBeUndefined()
    expect(tempFolderClosedReason()).toBeUndefined()
    expect(folderClosedToOthers(join(dir, 'missing'))).toBe(join(dir, 'missing'))
  })
})

const skip = attackerSkipReason()
if (skip) console.log(`skipping the copy of the CLI run as another user: ${skip}`)

describe.skipIf(skip !== undefined)('the CLI copied for another user', () => {
  let attacker: Attacker
  let cli: OtherUserCli
  beforeAll(async () => {
    attacker = createAttacker()
    cli = await copyCliForOtherUsers()
  })
  afterAll(() => {
    attacker?.remove()
    cli?.remove()
  })

  it('lies outside the checkout, runs as that user, and is removed afterwards', async () => {
    expect(relative(ROOT, cli.dir).startsWith('..')).toBe(true)
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
    expect(await attacker.exec(process.execPath, [cli.cli, '--version'])).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: '',
    })
    const helper = await attacker.exec(process.execPath, [cli.askpass, 'Password: '])
    expect(helper.stderr).not.toContain('not built yet')
    cli.remove()
    expect(existsSync(cli.dir)).toBe(false)
  })
})
