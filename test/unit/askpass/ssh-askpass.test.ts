// ssh to a local sshd asks through the inbox, with no terminal: first the host-key card (with the
// fingerprint), then the password card. "No" gives ssh's own "Host key verification failed.".
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chmodSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LABELS } from '../../../cli/askpass/card'
import { startSshd, type LocalSshd } from './local-sshd'
import { expectSecretKept, nextCard, openInbox, pick, runDetached, typeAnswer, type Inbox } from './real-programs'
import { createTestUser, rootSkipReason, TEST_PASSWORD, type TestUser } from './test-user'
import { copyCliForOtherUsers, type OtherUserCli } from '../../helpers/other-user-cli'
import { tempFolderClosedReason } from '../../helpers/temp-reach'

const skip =
  rootSkipReason(['/usr/sbin/sshd', '/usr/bin/ssh', '/usr/bin/setpriv', '/usr/bin/setsid']) ?? tempFolderClosedReason()
if (skip) console.log(`skipping ssh askpass tests: ${skip}`)

describe.skipIf(skip !== undefined)(
  'ssh with SSH_ASKPASS=ask-user-askpass and SSH_ASKPASS_REQUIRE=force, no terminal',
  () => {
    let dir: string
    let sshd: LocalSshd
    let inbox: Inbox
    let user: TestUser
    let cli: OtherUserCli
    let env: Record<string, string>

    beforeAll(async () => {
      user = createTestUser()
      cli = await copyCliForOtherUsers() // the test user may not enter the checkout's folders
      dir = await mkdtemp(join(tmpdir(), 'askpass-ssh-'))
      chmodSync(dir, 0o755)
      sshd = await startSshd(dir)
      inbox = await openInbox(cli.cli)
      env = {
        PATH: '/usr/bin:/bin',
        HOME: user.home,
        USER: user.name,
        LOGNAME: user.name,
        SSH_ASKPASS: cli.askpass,
        SSH_ASKPASS_REQUIRE: 'force',
        DISPLAY: ':0',
        ...inbox.env,
      }
    })
    afterAll(async () => {
      sshd?.stop()
      await inbox?.close()
      cli?.remove()
      user?.remove()
      await rm(dir, { recursive: true, force: true })
      for (const file of knownHostsFiles) await rm(file, { force: true })
    })

    const knownHostsFiles: string[] = []
    const ssh = (knownHosts: string) => {
      knownHostsFiles.push(knownHosts)
      return runDetached(
        [
          'ssh',
          '-p',
          String(sshd.port),
          '-o',
          `UserKnownHostsFile=${knownHosts}`,
          '-o',
          'StrictHostKeyChecking=ask',
          '-o',
          'PreferredAuthentications=password',
          '-o',
          'NumberOfPasswordPrompts=1',
          `${user.name}@127.0.0.1`,
          'id',
          '-u',
        ],
        env,
        { asUser: user },
      )
    }

    it('the host-key card shows the fingerprint; Yes, then the password, runs the command', async () => {
      const run = ssh(`/tmp/askpass-known-hosts-${process.pid}`)
      const hostKey = await nextCard(inbox)
      expect(hostKey.questions[0]).toMatchObject({
        header: 'Host key',
        options: [{ label: LABELS.yes }, { label: LABELS.no }],
      })
      expect(hostKey.questions[0]?.detail).toContain(sshd.fingerprint)
      expect(hostKey.title).toMatch(/^ssh -p /)
      expect(hostKey.askpass).toEqual({ receiver: 'ssh', verified: true })
      expect(hostKey.questions[0]?.detail).not.toContain('Warning')
      await pick(inbox, hostKey, LABELS.yes)
      const password = await nextCard(inbox)
      expect(password.questions[0]).toMatchObject({ secret: true, question: `${user.name}@127.0.0.1's password:` })
      expect(password.askpass).toEqual({ receiver: 'ssh', verified: true })
      await typeAnswer(inbox, password, TEST_PASSWORD)
      const result = await run
      expect(result.stdout).toBe(`${user.uid}\n`)
      expect(result.code).toBe(0)
      await expectSecretKept(inbox, TEST_PASSWORD)
    }, 30_000)

    it('"No" on the host-key card: Host key verification failed.', async () => {
      const run = ssh(`/tmp/askpass-known-hosts-no-${process.pid}`)
      await pick(inbox, await nextCard(inbox), LABELS.no)
      const result = await run
      expect(result.code).toBe(255)
      expect(result.stderr).toContain('Host key verification failed.')
    }, 30_000)

    it('LoginGraceTime 5 s passes while the password card waits: the card is withdrawn and ssh ends', async () => {
      // Measured: ssh itself keeps waiting on the helper after sshd dropped the connection, and an answer
      // typed later goes nowhere ("Connection closed"). The helper sees the server's close (CLOSE_WAIT).
      const graceDir = await mkdtemp(join(tmpdir(), 'askpass-grace-'))
      chmodSync(graceDir, 0o755)
      const short = await startSshd(graceDir, 5)
      try {
        const knownHosts = `/tmp/askpass-known-hosts-grace-${process.pid}`
        knownHostsFiles.push(knownHosts)
        const started = Date.now()
        const run = runDetached(
          [
            'ssh',
            '-p',
            String(short.port),
            '-o',
            `UserKnownHostsFile=${knownHosts}`,
            '-o',
            'StrictHostKeyChecking=no',
            '-o',
            'PreferredAuthentications=password',
            `${user.name}@127.0.0.1`,
            'id',
            '-u',
          ],
          env,
          { asUser: user },
        )
        const card = await nextCard(inbox)
        expect(card.questions[0]?.secret).toBe(true)
        const resolved = await inbox.masked.nextFrame(
          (f) => f.type === 'question/resolved' && f.askId === card.askId,
          15_000,
        )
        expect(resolved).toMatchObject({ outcome: 'aborted' })
        expect(Date.now() - started).toBeGreaterThanOrEqual(4_500)
        const result = await run
        expect(result.code).toBe(255)
        expect(result.stderr).toContain('ask-user-askpass: withdrawn')
      } finally {
        short.stop()
        await rm(graceDir, { recursive: true, force: true })
      }
    }, 30_000)
  },
)
