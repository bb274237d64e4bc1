// Class 3 (askpass): the helper's notes ("dismissed a minute ago", "this prompt was answered") live in a
// private folder; a folder, note or link another user planted is skipped, never believed nor written
// through, and the prompt still reaches the person. Attacks by a real second Unix user.
import { createHash } from 'node:crypto'
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { askpassNotesFolder, RepeatMemory } from '../../../cli/askpass/repeats'
import { askpassCommand } from '../../../cli/commands/askpass-helper'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { nextCard, openInbox, typeAnswer } from './real-programs'

const PARENT = ['sudo', '-k', 'true']
const PARENT_KEY = `4242\0${PARENT.join('\0')}`
/** The note's file name for PARENT_KEY, as the helper derives it. */
const NOTE = `${createHash('sha256').update(PARENT_KEY).digest('hex').slice(0, 32)}.json`

describe('askpassNotesFolder', () => {
  it('is in XDG_RUNTIME_DIR when set, else in the companion home; never the shared temp folder', () => {
    expect(askpassNotesFolder({ XDG_RUNTIME_DIR: '/run/user/1000', ASK_USER_HOME: '/h' }, 'linux')).toBe(
      '/run/user/1000/ask-user-askpass',
    )
    expect(askpassNotesFolder({ ASK_USER_HOME: '/h' }, 'linux')).toBe('/h/askpass')
    expect(askpassNotesFolder({ XDG_RUNTIME_DIR: 'relative', ASK_USER_HOME: '/h' }, 'linux')).toBe('/h/askpass')
    expect(askpassNotesFolder({ HOME: '/home/ann' }, 'linux').startsWith(tmpdir())).toBe(false)
  })
})

describe.skipIf(attackerSkipReason())('askpass notes another user planted', () => {
  let attacker: Attacker
  let shared: string
  /** A file of ours the attacker would like overwritten. */
  let precious: string

  beforeAll(async () => {
    attacker = createAttacker()
    shared = await mkdtemp(join(tmpdir(), 'ask-user-notes-'))
    await chmod(shared, 0o1777) // like /tmp: anyone may make a folder in it first
    precious = join(shared, 'precious')
    await writeFile(precious, 'ours\n', { mode: 0o600 })
  })
  afterAll(async () => {
    attacker?.remove()
    await rm(shared, { recursive: true, force: true })
  })

  /** The attacker makes `dir` (mode 0700, theirs) and writes a "dismissed just now" note in it. */
  function plantFolder(name: string): string {
    const dir = join(shared, name)
    attacker.run('mkdir', ['-m', '700', dir])
    attacker.run('sh', ['-c', `cat > ${join(dir, NOTE)}`], { input: JSON.stringify({ dismissedAt: Date.now() }) })
    return dir
  }

  it('a notes folder another user made first is skipped: their note is not believed, nothing is written there', () => {
    const dir = plantFolder('made-first')
    const memory = new RepeatMemory(PARENT_KEY, dir)
    expect(memory.recentlyDismissed(Date.now())).toBe(false)
    memory.answered('Password:', Date.now())
    expect(memory.isRepeat('Password:', Date.now())).toBe(false)
  })

  it('a link they planted at the note is never written through: our file keeps its content', async () => {
    const dir = join(shared, 'with-link')
    attacker.run('mkdir', ['-m', '700', dir])
    attacker.run('ln', ['-s', precious, join(dir, NOTE)])
    new RepeatMemory(PARENT_KEY, dir).dismissed(Date.now())
    expect(await readFile(precious, 'utf8')).toBe('ours\n')
    expect((await lstat(join(dir, NOTE))).isSymbolicLink()).toBe(true)
  })

  it('in a folder of ours, their note and their link are skipped and left alone', async () => {
    const dir = join(shared, 'ours-but-open')
    await mkdir(dir, { mode: 0o700 })
    await chmod(dir, 0o777) // left open (an old umask), so they could plant in it
    attacker.run('sh', ['-c', `cat > ${join(dir, NOTE)}`], { input: JSON.stringify({ dismissedAt: Date.now() }) })
    const memory = new RepeatMemory(PARENT_KEY, dir)
    expect((await lstat(dir)).mode & 0o777).toBe(0o700) // ours: tightened
    expect(memory.recentlyDismissed(Date.now())).toBe(false)
    memory.dismissed(Date.now()) // their note is not replaced: it is theirs
    expect((await lstat(join(dir, NOTE))).uid).toBe(attacker.uid)

    const other = `${PARENT_KEY}-2`
    const otherNote = `${createHash('sha256').update(other).digest('hex').slice(0, 32)}.json`
    await chmod(dir, 0o777)
    attacker.run('ln', ['-s', precious, join(dir, otherNote)])
    const linked = new RepeatMemory(other, dir)
    linked.answered('Password:', Date.now())
    expect(linked.isRepeat('Password:', Date.now())).toBe(false)
    expect(await readFile(precious, 'utf8')).toBe('ours\n')
    expect(await readdir(dir)).toEqual(expect.arrayContaining([NOTE, otherNote]))
  })

  it('the prompt still reaches the person when the notes folder is theirs', async () => {
    const dir = plantFolder('prompt-reaches')
    const inbox = await openInbox()
    try {
      const stdout = new PassThrough()
      let printed = ''
      stdout.on('data', (chunk: Buffer) => void (printed += chunk.toString()))
      const run = askpassCommand({ ppid: 4242, now: () => Date.now(), parentArgs: () => PARENT, memoryDir: dir })(
        ['Password:'],
        {
          stdout,
          stderr: new PassThrough(),
          stdin: new PassThrough(),
          env: inbox.env,
          cwd: shared,
          signal: new AbortController().signal,
        },
      )
      const card = await nextCard(inbox)
      expect(card.agent.name).toBe('ask-user-askpass')
      await typeAnswer(inbox, card, 'correct horse')
      expect(await run).toBe(0)
      expect(printed).toBe('correct horse\n')
    } finally {
      await inbox.close()
    }
  })
})
