// sudo asks for the test user's password through the inbox, with no terminal: with SUDO_ASKPASS and
// DISPLAY and no -A (sudo 1.9.13 then uses the helper), and with -A. A wrong answer brings a repeat card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyCliForOtherUsers, type OtherUserCli } from '../../helpers/other-user-cli'
import { tempFolderClosedReason } from '../../helpers/temp-reach'
import { expectSecretKept, nextCard, openInbox, runDetached, typeAnswer, type Inbox } from './real-programs'
import { createTestUser, rootSkipReason, TEST_PASSWORD, type TestUser } from './test-user'

const skip = rootSkipReason(['/usr/bin/sudo', '/usr/bin/setpriv', '/usr/bin/setsid']) ?? tempFolderClosedReason()
if (skip) console.log(`skipping sudo askpass tests: ${skip}`)

describe.skipIf(skip !== undefined)('sudo with SUDO_ASKPASS=ask-user-askpass, no terminal', () => {
  let inbox: Inbox
  let user: TestUser
  let cli: OtherUserCli
  let env: Record<string, string>

  beforeAll(async () => {
    user = createTestUser()
    cli = await copyCliForOtherUsers() // the test user may not enter the checkout's folders
    inbox = await openInbox(cli.cli)
    env = {
      PATH: '/usr/bin:/bin:/usr/sbin:/sbin',
      HOME: user.home,
      USER: user.name,
      LOGNAME: user.name,
      SUDO_ASKPASS: cli.askpass,
      DISPLAY: ':0',
      ...inbox.env,
    }
  })
  afterAll(async () => {
    await inbox?.close()
    cli?.remove()
    user?.remove()
  })

  const sudo = (args: string[]) => runDetached(['sudo', ...args, '-k', 'id', '-u'], env, { asUser: user })

  it('without -A: the password card is titled with the sudo command, and the right password runs it', async () => {
    const run = sudo([])
    const card = await nextCard(inbox)
    expect(card.questions[0]).toMatchObject({ secret: true, question: `[sudo] password for ${user.name}:` })
    expect(card.title).toBe('sudo -k id -u')
    // the companion (root here) reads sudo's exe; the helper (the test user) cannot, and judges sudo by its uids
    expect(card.askpass).toEqual({ receiver: 'sudo', verified: true })
    expect(card.questions[0]?.detail ?? '').not.toContain('Warning')
    await typeAnswer(inbox, card, TEST_PASSWORD)
    const result = await run
    expect(result).toMatchObject({ code: 0, stdout: '0\n' })
    await expectSecretKept(inbox, TEST_PASSWORD)
  })

  it('with -A: a wrong password, then a card that says it is a repeat, then the right one', async () => {
    const run = sudo(['-A'])
    const first = await nextCard(inbox)
    expect(first.questions[0]?.detail ?? '').not.toContain('Asked again')
    await typeAnswer(inbox, first, 'wrong-guess-1')
    const again = await nextCard(inbox)
    expect(again.questions[0]?.detail).toContain('Asked again by the same program')
    await typeAnswer(inbox, again, TEST_PASSWORD)
    const result = await run
    expect(result.stderr).toContain('Sorry, try again.')
    expect(result).toMatchObject({ code: 0, stdout: '0\n' })
    await expectSecretKept(inbox, TEST_PASSWORD)
    await expectSecretKept(inbox, 'wrong-guess-1')
  })

  it('a dismissal ends sudo at once; no second card for that sudo', async () => {
    const run = sudo(['-A'])
    const card = await nextCard(inbox)
    await inbox.masked.dismiss(card.askId)
    const result = await run
    expect(result.code).toBe(1)
    expect(inbox.test.companion.pending()).toEqual([])
  })
})
