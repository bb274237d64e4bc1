// `ask-user open`, `window-token` and `agent-token`, built, against a real companion in a temp home.
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { ensureBuilt, runCli } from './built-cli'

let t: TestCompanion
let dir: string
beforeAll(async () => {
  await ensureBuilt()
  dir = await mkdtemp(join(tmpdir(), 'ask-user-window-cmd-'))
}, 120_000)
afterAll(() => rm(dir, { recursive: true, force: true }))
afterEach(() => t?.cleanup())

describe.skipIf(process.platform === 'win32')('window commands', () => {
  it('open mints a one-time link and hands only that to the browser opener; the link signs a page in', async () => {
    t = await startTestCompanion()
    const bin = join(dir, 'bin')
    const opened = join(dir, 'opened.txt')
    await mkdir(bin, { recursive: true })
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > "${opened}"\n`)
    await chmod(join(bin, 'xdg-open'), 0o755)
    const run = await runCli(['open'], { ASK_USER_HOME: t.home, PATH: `${bin}:${process.env['PATH'] ?? ''}` }).done
    expect(run).toMatchObject({ code: 0, stdout: '' })
    expect(run.stderr).toContain('Opened a one-time link')
    await expect
      .poll(() => readFile(opened, 'utf8').catch(() => ''))
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{32}$/)
    const link = await readFile(opened, 'utf8')
    const redeemed = await fetch(new URL('/v1/window/redeem', link), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: new URL(link).hash.slice('#code='.length) }),
    })
    expect(await redeemed.json()).toEqual({ credential: t.companion.windowCredential() })
  })

  it('open --confirm reads the digits a page shows from stdin and confirms it', async () => {
    t = await startTestCompanion({ redeemer: () => 'unknown' })
    const link = t.companion.windowLink()
    const reply = (await (
      await fetch(new URL('/v1/window/redeem', link), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: new URL(link).hash.slice('#code='.length) }),
      })
    ).json()) as { confirm: { digits: string; ticket: string } }
    const wrong = reply.confirm.digits === '000000' ? '111111' : '000000'
    const run = await runCli(['open', '--confirm'], { ASK_USER_HOME: t.home }, `${wrong}\n${reply.confirm.digits}\n`)
      .done
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('Those are not the digits the page shows')
    expect(run.stderr).toContain('Confirmed: the page is signed in.')
  })

  it('window-token writes a new 0600 file, never stdout, and refuses an existing file or a symlink', async () => {
    t = await startTestCompanion()
    const out = join(dir, `credential-${Date.now()}`)
    const run = await runCli(['window-token', '--out', out], { ASK_USER_HOME: t.home }).done
    expect(run).toMatchObject({ code: 0, stdout: '' })
    expect(await readFile(out, 'utf8')).toBe(`${t.companion.windowCredential()}\n`)
    expect((await lstat(out)).mode & 0o777).toBe(0o600)
    expect((await runCli(['window-token', '--out', out], { ASK_USER_HOME: t.home }).done).code).toBe(1)
    const target = join(dir, 'victim')
    await writeFile(target, 'mine\n', { mode: 0o600 })
    const link = join(dir, `link-${Date.now()}`)
    await symlink(target, link)
    expect((await runCli(['window-token', '--out', link], { ASK_USER_HOME: t.home }).done).code).toBe(1)
    expect(await readFile(target, 'utf8')).toBe('mine\n')
    expect((await runCli(['window-token'], { ASK_USER_HOME: t.home }).done).code).toBe(2)
  })

  it('agent-token writes the agent token to a pipe; the window credential is never reachable through the agent token', async () => {
    t = await startTestCompanion()
    const run = await runCli(['agent-token'], { ASK_USER_HOME: t.home }).done
    expect(run).toEqual({ code: 0, signal: null, stdout: `${t.companion.token}\n`, stderr: '' })
    const forwarded = await runCli(['open'], {
      HOME: dir,
      ASK_USER_HOME: join(dir, 'remote-home'),
      ASK_USER_URL: t.companion.agentUrl,
      ASK_USER_TOKEN: t.companion.token,
    }).done
    expect(forwarded.code).toBe(4)
  })
})
