// git over HTTP with Basic auth asks for its username and password through the inbox, with no terminal.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GIT_HTTP_BACKEND, startGitServer, type GitServer } from './git-http-server'
import { asQuestion } from '../../helpers/ask-kinds'
import { expectSecretKept, HELPER, nextCard, openInbox, runDetached, typeAnswer, type Inbox } from './real-programs'

const SECRET = 'correct-horse-7391'
const missing =
  !existsSync(GIT_HTTP_BACKEND) ||
  !existsSync('/usr/bin/setsid') ||
  !existsSync(join(HELPER, '..', '..', 'out', 'main', 'cli.js'))
if (missing) console.log(`skipping git askpass tests: needs git, ${GIT_HTTP_BACKEND}, setsid and a built checkout`)

describe.skipIf(missing)('git clone over HTTP with GIT_ASKPASS=ask-user-askpass, no terminal', () => {
  let dir: string
  let server: GitServer
  let inbox: Inbox
  let env: Record<string, string>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'askpass-git-'))
    execFileSync('git', ['init', '-q', '--bare', join(dir, 'repos', 'demo.git')])
    server = await startGitServer(join(dir, 'repos'), 'alice', SECRET)
    inbox = await openInbox()
    env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_ASKPASS: HELPER,
      GIT_TERMINAL_PROMPT: '0',
      ...inbox.env,
    }
  })
  afterAll(async () => {
    await inbox?.close()
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const clone = (name: string) => runDetached(['git', 'clone', '-q', `${server.url}/demo.git`, join(dir, name)], env)

  it('a right answer clones: a username card, then a masked password card titled with git-remote-http', async () => {
    const run = clone('right')
    const user = await nextCard(inbox)
    expect(user.questions[0]).toMatchObject({ header: 'Username', question: `Username for '${server.url}':` })
    expect(user.questions[0]?.secret).toBeUndefined()
    expect(user.title).toMatch(/git-remote-http origin /)
    // the companion traced the connection to its helper, whose parent the kernel names git-remote-http
    expect(user.askpass).toEqual({ receiver: 'git-remote-http', verified: true })
    expect(user.questions[0]?.detail ?? '').not.toContain('Warning')
    await typeAnswer(inbox, user, 'alice')
    const password = await nextCard(inbox)
    expect(password.questions[0]).toMatchObject({ header: 'Password', secret: true })
    expect(password.questions[0]?.question).toContain('Password for')
    expect(password.askpass).toEqual({ receiver: 'git-remote-http', verified: true })
    // the URL's userinfo is taken out of the title, which goes into history
    expect(password.title).not.toContain('alice@')
    await typeAnswer(inbox, password, SECRET)
    const result = await run
    expect(result.stderr).not.toContain('fatal')
    expect(result.code).toBe(0)
    expect(existsSync(join(dir, 'right', '.git'))).toBe(true)
    await expectSecretKept(inbox, SECRET)
    const entry = (await inbox.test.companion.history()).find((e) => e.askId === password.askId)
    expect(entry).toMatchObject({ outcome: 'answered' })
    expect(entry && asQuestion(entry).answers).toBeUndefined()
  })

  it("a wrong password fails with git's own message", async () => {
    const run = clone('wrong')
    await typeAnswer(inbox, await nextCard(inbox), 'alice')
    await typeAnswer(inbox, await nextCard(inbox), 'not-the-password')
    const result = await run
    expect(result.code).toBe(128)
    expect(result.stderr).toContain('Authentication failed')
    await expectSecretKept(inbox, 'not-the-password')
  })

  it('a dismissal fails at once', async () => {
    const run = clone('dismissed')
    const card = await nextCard(inbox)
    expect((await inbox.masked.dismiss(card.askId)).type).toBe('accepted')
    const started = Date.now()
    const result = await run
    expect(result.code).not.toBe(0)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(result.stderr).toContain('ask-user-askpass: dismissed by the person')
  })
})
