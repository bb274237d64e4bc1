// Class 4: the askpass receiver is named from what the kernel says, not from the parent's argv[0].
// The judgement over the kernel's facts, then real processes an attacker user starts as "sudo".
import { mkdirSync, symlinkSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeReceiver, type ProcessFacts } from '../../../core/askpass-receiver'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { copyCliForOtherUsers, type OtherUserCli } from '../../helpers/other-user-cli'
import { nextCard, openInbox, type Inbox } from './real-programs'

const USER = 1000
const systemExe = (path: string) => ({
  ok: true as const,
  path,
  owner: 0,
  mode: 0o100755,
  dirOwner: 0,
  dirMode: 0o40755,
})

describe('judging the receiver from the kernel facts', () => {
  const refused = (facts: Partial<ProcessFacts>): ProcessFacts => ({
    exe: { ok: false, code: 'EACCES' },
    argv: [],
    ...facts,
  })

  it('a genuine sudo: exe unreadable, real uid the user, effective uid 0, named sudo', () => {
    expect(
      judgeReceiver(refused({ name: 'sudo', realUid: USER, effectiveUid: 0, argv: ['sudo', '-A', 'id'] }), USER),
    ).toEqual({ program: 'sudo', verified: true })
    expect(
      judgeReceiver(refused({ name: 'sudoedit', realUid: USER, effectiveUid: 0, argv: ['sudoedit', '/etc/x'] }), USER),
    ).toEqual({ program: 'sudoedit', verified: true })
  })

  it('a process the user made cannot have effective uid 0: named sudo, it is still not verified', () => {
    expect(
      judgeReceiver(refused({ name: 'sudo', realUid: USER, effectiveUid: USER, argv: ['sudo'] }), USER).verified,
    ).toBe(false)
    // another user's setuid-root program started by someone else
    expect(
      judgeReceiver(refused({ name: 'sudo', realUid: 1001, effectiveUid: 0, argv: ['sudo'] }), USER).verified,
    ).toBe(false)
    // a setuid-root program that is not sudo, reached through a symlink named sudo (comm "sudo", argv[0] "passwd")
    expect(
      judgeReceiver(refused({ name: 'sudo', realUid: USER, effectiveUid: 0, argv: ['passwd'] }), USER).verified,
    ).toBe(false)
    expect(
      judgeReceiver(refused({ name: 'passwd', realUid: USER, effectiveUid: 0, argv: ['sudo'] }), USER).verified,
    ).toBe(false)
    // a vanished process
    expect(judgeReceiver({ exe: { ok: false, code: 'ENOENT' }, argv: [] }, USER)).toEqual({
      program: 'an unknown program',
      verified: false,
    })
  })

  it('a readable exe names the program; verified only for a known name in a file and folder only root can change', () => {
    expect(judgeReceiver({ exe: systemExe('/usr/bin/ssh'), argv: ['ssh', 'h'] }, USER)).toEqual({
      program: 'ssh',
      verified: true,
    })
    expect(
      judgeReceiver({ exe: systemExe('/usr/lib/git-core/git-remote-http'), argv: ['git-remote-https'] }, USER),
    ).toEqual({ program: 'git-remote-http', verified: true })
    // argv[0] says sudo, the exe is node: node
    expect(judgeReceiver({ exe: systemExe('/usr/bin/node'), argv: ['sudo', 'x.js'] }, USER)).toEqual({
      program: 'node',
      verified: false,
    })
    // the user's own copy named ssh, or one put in a world-writable folder
    expect(
      judgeReceiver({ exe: { ...systemExe('/home/u/bin/ssh'), owner: USER, dirOwner: USER }, argv: ['ssh'] }, USER)
        .verified,
    ).toBe(false)
    expect(judgeReceiver({ exe: { ...systemExe('/tmp/ssh'), dirMode: 0o41777 }, argv: ['ssh'] }, USER).verified).toBe(
      false,
    )
    expect(
      judgeReceiver({ exe: { ...systemExe('/usr/bin/sudo'), mode: 0o100777 }, argv: ['sudo'] }, USER).verified,
    ).toBe(false)
  })
})

const skip = attackerSkipReason()
if (skip) console.log(`skipping the real "sudo" impostors: ${skip}`)

describe.skipIf(skip !== undefined)(
  'an attacker user starts the helper from programs that call themselves sudo',
  () => {
    let inbox: Inbox
    let attacker: Attacker
    let cli: OtherUserCli
    beforeAll(async () => {
      cli = await copyCliForOtherUsers() // the attacker may not enter the checkout's folders
      inbox = await openInbox(cli.cli)
      attacker = createAttacker()
    })
    afterAll(async () => {
      attacker?.remove()
      await inbox?.close()
      cli?.remove()
    })

    /** Runs `command args` as the attacker with the companion's address; resolves with the card it brought. */
    const cardFrom = async (command: string, args: string[]) => {
      const child = attacker.spawn(command, args, {
        env: { PATH: '/usr/bin:/bin', HOME: attacker.home, ...inbox.env },
        stdio: 'ignore',
      })
      const exited = new Promise((resolve) => child.once('close', resolve))
      const card = await nextCard(inbox)
      await inbox.masked.dismiss(card.askId)
      await exited
      return card
    }
    const expectNotSudo = (card: Awaited<ReturnType<typeof cardFrom>>, program: string) => {
      expect(card.askpass).toEqual({ receiver: program, verified: false })
      expect(card.questions[0]?.detail).toContain(`**Warning:** the answer will be printed to \`${program}\``)
      expect(JSON.stringify(card)).not.toContain('goes only to')
    }

    it('a symlink named sudo to node, running a script that starts the helper: the receiver is node', async () => {
      const script = attacker.writeFile(
        'steal.js',
        `require('node:child_process').spawnSync(process.argv[2], [process.argv[3], '[sudo] password for you: '], { stdio: 'inherit' })\n`,
      )
      mkdirSync(`${attacker.home}/link`)
      const sudo = `${attacker.home}/link/sudo`
      symlinkSync(process.execPath, sudo)
      expectNotSudo(await cardFrom(sudo, [script, process.execPath, cli.askpass]), 'node')
    })

    it('a shell script run with argv[0] "sudo" (exec -a): the receiver is the shell', async () => {
      const script = attacker.writeFile('sudo', `#!/bin/bash\n"$1" "$2" '[sudo] password for you: '\n`)
      const card = await cardFrom('/bin/bash', [
        '-c',
        `exec -a sudo /bin/bash ${script} ${process.execPath} ${cli.askpass}`,
      ])
      expectNotSudo(card, 'bash')
    })
  },
)
