// The helper as sudo, ssh and git run it (no companion, SIGTERM), and `ask-user setup … --askpass`.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { cliStartUpMs } from '../cli/built-cli'
import { HELPER, nextCard, openInbox, runDetached, type Inbox } from './real-programs'

const BASE_ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }

describe('ask-user-askpass', () => {
  let inbox: Inbox
  beforeAll(async () => void (inbox = await openInbox()))
  afterAll(async () => inbox?.close())

  it('with no companion and no terminal: exit 1 at once, one line on stderr, nothing on stdout', async () => {
    const home = await mkdtemp(join(tmpdir(), 'askpass-none-'))
    try {
      const floor = await cliStartUpMs({ ...BASE_ENV, ASK_USER_HOME: home }) // this machine's process start, now
      const started = performance.now()
      const result = await runDetached([process.execPath, HELPER, 'Password: '], { ...BASE_ENV, ASK_USER_HOME: home })
      expect(performance.now() - started).toBeLessThan(floor + 5_000)
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(/^ask-user-askpass: .*ask-user serve/)
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it('SIGTERM withdraws the card (as ssh does for a security-key reminder)', async () => {
    const child = spawn('setsid', ['-w', process.execPath, HELPER, 'Confirm user presence for key'], {
      env: { ...BASE_ENV, ...inbox.env, SSH_ASKPASS_PROMPT: 'none' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
    const card = await nextCard(inbox)
    expect(card.questions[0]).toMatchObject({ header: 'Security key', options: [{ label: 'OK' }] })
    // spawned outside a process-group lead, setsid execs in place: child.pid is the helper
    child.kill('SIGTERM')
    const resolved = await inbox.masked.nextFrame(
      (frame) => frame.type === 'question/resolved' && frame.askId === card.askId,
    )
    expect(resolved).toMatchObject({ outcome: 'aborted' })
    expect(await exited).toBe(1)
  })
})

describe('the packaged launcher (build/bin/ask-user-askpass)', () => {
  it('execs the ask-user launcher beside it with __askpass and the prompt, so the caller stays the parent', async () => {
    const { copyFile, writeFile, chmod } = await import('node:fs/promises')
    const dir = await mkdtemp(join(tmpdir(), 'askpass-launcher-'))
    await copyFile(join(__dirname, '..', '..', '..', 'build', 'bin', 'ask-user-askpass'), join(dir, 'ask-user-askpass'))
    await chmod(join(dir, 'ask-user-askpass'), 0o755)
    // a stand-in for resources/bin/ask-user: prints its arguments and its parent's pid
    await writeFile(join(dir, 'ask-user'), '#!/bin/sh\necho "$@"\necho "$PPID"\n', { mode: 0o755 })
    const child = spawn(join(dir, 'ask-user-askpass'), ['[sudo] password for u: ', 'ignored'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()))
    await new Promise((resolve) => child.once('close', resolve))
    expect(out).toBe(`__askpass [sudo] password for u: \n${process.pid}\n`)
    await rm(dir, { recursive: true, force: true })
  })
})

describe('ask-user setup --askpass', () => {
  let home: string
  beforeAll(async () => void (home = await mkdtemp(join(tmpdir(), 'askpass-setup-'))))
  afterAll(async () => rm(home, { recursive: true, force: true }))

  const setup = async (args: string[], env: Record<string, string> = {}) => {
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    let out = ''
    let err = ''
    stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()))
    stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()))
    const code = await main(['setup', ...args], {
      stdout,
      stderr,
      stdin: new PassThrough(),
      env: { ...BASE_ENV, HOME: home, ...env },
      cwd: home,
      signal: new AbortController().signal,
    })
    return { code, out, err }
  }

  it("claude-code: the variables in settings.json's env, idempotent, removable", async () => {
    expect((await setup(['claude-code', '--askpass'])).code).toBe(0)
    const settings = JSON.parse(await readFile(join(home, '.claude', 'settings.json'), 'utf8')) as {
      env: Record<string, string>
    }
    expect(settings.env).toMatchObject({
      SUDO_ASKPASS: expect.stringMatching(/bin\/ask-user-askpass\.js$/),
      SSH_ASKPASS_REQUIRE: 'force',
      GIT_TERMINAL_PROMPT: '0',
      DISPLAY: ':0',
    })
    expect(settings.env['SSH_ASKPASS']).toBe(settings.env['SUDO_ASKPASS'])
    expect((await setup(['claude-code', '--askpass'])).out).toContain('already set up')
    await setup(['claude-code', '--askpass', '--remove'])
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).not.toContain('ASKPASS')
  })

  it('codex: [shell_environment_policy.set]; gemini is refused with what to use instead', async () => {
    expect((await setup(['codex', '--askpass'])).code).toBe(0)
    expect(await readFile(join(home, '.codex', 'config.toml'), 'utf8')).toMatch(
      /\[shell_environment_policy\.set\]\nSUDO_ASKPASS = ".*ask-user-askpass\.js"/,
    )
    const refused = await setup(['gemini', '--askpass'])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('ask-user setup shell --askpass')
  })

  it('shell: prints the block; writes it only with --write, once; --remove takes it out', async () => {
    const printed = await setup(['shell', '--askpass'], { SHELL: '/bin/bash' })
    expect(printed.out).toContain("export SUDO_ASKPASS='")
    expect(printed.out).toContain('[ -n "$DISPLAY" ] || export DISPLAY=:0')
    await expect(readFile(join(home, '.bashrc'), 'utf8')).rejects.toThrow()
    await setup(['shell', '--askpass', '--write'], { SHELL: '/bin/bash' })
    expect((await setup(['shell', '--askpass', '--write'], { SHELL: '/bin/bash' })).out).toContain('unchanged')
    expect((await readFile(join(home, '.bashrc'), 'utf8')).match(/>>> ask-user askpass >>>/g)).toHaveLength(1)
    await setup(['shell', '--askpass', '--remove'], { SHELL: '/bin/bash' })
    expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe('')
  })
})
