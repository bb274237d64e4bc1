// Classes 3 and 10: the companion's files are its own or refused. Its home folder's owner is checked
// before its mode; a file of another user in it is neither believed nor replaced; no write follows a
// link. Attacks by a real second Unix user (test/helpers/attacker-user.ts); the checks themselves on
// folders of ours need no second user.
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../../core/history'
import {
  appendPrivateFile,
  ensurePrivateDir,
  PrivateFileError,
  readPrivateFile,
  writeFileAtomic,
} from '../../../core/private-files'
import { ensurePrivateDirSync, readPrivateFileSync, writeFileAtomicSync } from '../../../core/private-files-sync'
import { loadSettings } from '../../../core/settings-store'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { startTestCompanion } from '../../helpers/companion'

const posix = process.platform !== 'win32'

const made: string[] = []
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true })
})
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ask-user-files-'))
  made.push(dir)
  return dir
}

/** The rejection of `promise` as a PrivateFileError (fails the test when it resolves or throws another error). */
async function refusal(promise: Promise<unknown>): Promise<PrivateFileError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(PrivateFileError)
  return error as PrivateFileError
}

describe.skipIf(!posix)('private files, on folders of ours', () => {
  it('ensurePrivateDir makes 0700 folders and tightens one of ours; refuses a sticky one and a parent anyone may write', async () => {
    const root = await tempDir()
    const home = join(root, 'a', 'home')
    await ensurePrivateDir(home)
    expect((await stat(home)).mode & 0o777).toBe(0o700)
    await chmod(home, 0o755)
    ensurePrivateDirSync(home)
    expect((await stat(home)).mode & 0o777).toBe(0o700)

    await chmod(home, 0o1777)
    expect((await refusal(ensurePrivateDir(home))).code).toBe('SHARED_FOLDER')
    await chmod(home, 0o700)

    const open = join(root, 'open')
    await mkdir(open)
    await chmod(open, 0o777) // not sticky: anyone could swap our folder for theirs
    expect((await refusal(ensurePrivateDir(join(open, 'home')))).code).toBe('SHARED_FOLDER')
  })

  it('writes are atomic, mode 0600, and never go through a link at the target', async () => {
    const dir = await tempDir()
    const precious = join(dir, 'precious')
    await writeFile(precious, 'ours\n', { mode: 0o600 })
    const file = join(dir, 'settings.json')
    await writeFileAtomic(file, 'one')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    writeFileAtomicSync(file, 'two')
    expect(await readFile(file, 'utf8')).toBe('two')

    const link = join(dir, 'history.jsonl')
    await symlink(precious, link)
    expect((await refusal(appendPrivateFile(link, 'planted\n'))).code).toBe('NOT_A_FILE')
    expect((await refusal(readPrivateFile(link))).code).toBe('NOT_A_FILE')
    expect(() => readPrivateFileSync(link)).toThrow(/NOT_A_FILE/)
    await writeFileAtomic(link, 'replaced') // our own link is replaced, not written through
    expect(await readFile(precious, 'utf8')).toBe('ours\n')
    expect((await lstat(link)).isFile()).toBe(true)
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('reading or appending to a file of ours with group/other bits tightens it to 0600', async () => {
    const dir = await tempDir()
    const file = join(dir, 'history.jsonl')
    await writeFile(file, 'x\n')
    await chmod(file, 0o644)
    expect(await readPrivateFile(file)).toBe('x\n')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    await chmod(file, 0o666)
    await appendPrivateFile(file, 'y\n')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readFile(file, 'utf8')).toBe('x\ny\n')
  })
})

describe.skipIf(attackerSkipReason())('the home folder and its files, attacked by another user', () => {
  let attacker: Attacker
  let shared: string

  beforeAll(async () => {
    attacker = createAttacker()
    shared = await mkdtemp(join(tmpdir(), 'ask-user-shared-'))
    await chmod(shared, 0o1777) // like /tmp
  })
  afterAll(async () => {
    attacker?.remove()
    await rm(shared, { recursive: true, force: true })
  })

  /** A home folder of ours left open (0777) so the attacker could plant files; `plant` runs as them. */
  async function openHome(name: string, plant: string): Promise<string> {
    const home = join(shared, name)
    await mkdir(home, { mode: 0o700 })
    await chmod(home, 0o777)
    attacker.run('sh', ['-c', `cd ${home} && ${plant}`])
    return home
  }

  it('a home folder another user made first, mode 0700, is refused by its owner before its mode: the companion does not start', async () => {
    const home = join(shared, 'their-home')
    attacker.run('mkdir', ['-m', '700', home])
    const error = await refusal(startTestCompanion({ home }))
    expect(error.code).toBe('NOT_OURS')
    expect(error.message).toContain(`uid ${attacker.uid}`)
    expect(error.message).toContain('ASK_USER_HOME')
    expect(await readdir(home)).toEqual([]) // no token left in their folder
  })

  it('their endpoint.json in our home is not replaced: the companion refuses to start and says why', async () => {
    const home = await openHome(
      'their-endpoint',
      `printf '{"protocol":1,"url":"ws://127.0.0.1:9/v1/agent","token":"theirs","pid":2147483646}' > endpoint.json && chmod 600 endpoint.json`,
    )
    const error = await refusal(startTestCompanion({ home }))
    expect(error.code).toBe('NOT_OURS')
    expect(error.path).toBe(join(home, 'endpoint.json'))
    expect((await stat(join(home, 'endpoint.json'))).uid).toBe(attacker.uid)
    expect((await stat(home)).mode & 0o777).toBe(0o700) // the folder, ours, was tightened first
  })

  it('their settings.json is not believed: defaults, with a warning naming the file and its owner', async () => {
    const home = await openHome('their-settings', `printf '{"history":false}' > settings.json`)
    const loaded = await loadSettings(home)
    expect(loaded.settings.history).toBe(true)
    expect(loaded.warning).toContain('NOT_OURS')
    expect(loaded.warning).toContain(`uid ${attacker.uid}`)
  })

  it('their history.jsonl is neither read nor appended to', async () => {
    const planted = JSON.stringify({ askId: 'planted' })
    const home = await openHome('their-history', `printf '%s\\n' '${planted}' > history.jsonl`)
    const warnings: string[] = []
    const history = new HistoryStore(join(home, 'history.jsonl'), {
      enabled: true,
      limit: 10,
      warn: (message) => void warnings.push(message),
    })
    await history.init()
    expect(await history.read()).toEqual([])
    expect(warnings.join('\n')).toContain('NOT_OURS')
    expect(await readFile(join(home, 'history.jsonl'), 'utf8')).toBe(`${planted}\n`)
  })

  it('a link they planted at history.jsonl is not written through: our file keeps its content', async () => {
    const precious = join(shared, 'precious')
    await writeFile(precious, 'ours\n', { mode: 0o600 })
    const home = await openHome('their-link', `ln -s ${precious} history.jsonl`)
    const warnings: string[] = []
    const history = new HistoryStore(join(home, 'history.jsonl'), {
      enabled: true,
      limit: 10,
      warn: (message) => void warnings.push(message),
    })
    await history.init()
    history.recordLine('{"askId":"new"}')
    await history.flush()
    expect(warnings.join('\n')).toContain('symbolic link')
    expect(await readFile(precious, 'utf8')).toBe('ours\n')
  })
})
