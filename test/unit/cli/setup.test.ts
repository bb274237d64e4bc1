import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { connectBlocks } from '../../../integrations/connect-blocks'
import { HARNESS_BY_ID } from '../../../integrations/index'
import { BIN } from './built-cli'
import { memoryIo } from './memory-io'

let home: string
const companion = '/srv/companion home'
const env = (): NodeJS.ProcessEnv => ({ HOME: home, PATH: '/nonexistent', ASK_USER_HOME: companion })
const info = { commandLine: { command: BIN, args: [] }, env: { ASK_USER_HOME: companion }, platform: 'linux' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-setup-unit-'))
})
afterEach(async () => rm(home, { recursive: true, force: true }))

async function setup(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo(env())
  const code = await main(['setup', ...args], io)
  return { code, out: io.out(), err: io.err() }
}

describe('ask-user setup (in-process)', () => {
  it('--print shows what the panel shows after its setup line, and the notes, changing nothing', async () => {
    const printed = await setup('cursor', '--print')
    const [, entry] = connectBlocks(HARNESS_BY_ID.cursor, info)
    expect(printed).toEqual({
      code: 0,
      err: '',
      out:
        `# ~/.cursor/mcp.json\n${entry!.text}\n\n` +
        '# Cursor has no per-server tool timeout; a question left longer than its limit (reported: 5 minutes) is withdrawn.\n',
    })
    await expect(readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).rejects.toThrow('ENOENT')
  })

  it('--print gives one block per file, merged, for the hooks too (nothing to merge by hand)', async () => {
    const printed = await setup('claude-code', '--hooks', '--print')
    expect(printed.code).toBe(0)
    const blocks = printed.out.split('\n\n').filter((block) => block.startsWith('# ~/'))
    expect(blocks.map((block) => block.split('\n')[0])).toEqual(['# ~/.claude/settings.json'])
    const settings = JSON.parse(blocks[0]!.slice(blocks[0]!.indexOf('\n') + 1)) as Record<
      string,
      Record<string, unknown>
    >
    expect(Object.keys(settings)).toEqual(['permissions', 'hooks'])
    expect(Object.keys(settings['hooks']!)).toEqual(['PermissionRequest', 'PreToolUse', 'Notification', 'Stop'])
    const opencode = await setup('opencode', '--print')
    expect(opencode.out.match(/^# ~\//gm)).toEqual(['# ~/'])
  })

  it("keeps the user's other entries, and copies a JSONC file whose comments it cannot keep", async () => {
    const file = join(home, '.config', 'opencode', 'opencode.jsonc')
    await mkdir(join(home, '.config', 'opencode'), { recursive: true })
    const before = '{\n  // mine\n  "model": "x",\n  "mcp": { "other": { "type": "local", "command": ["o"] } },\n}\n'
    await writeFile(file, before)
    const done = await setup('opencode')
    expect(done).toEqual({
      code: 0,
      err: '',
      out:
        `${file}: set mcp.ask-user (its comments are not kept; the file as it was is ${file}.bak)\n` +
        `${file}: set permission.ask-user_*\n`,
    })
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(before)
    const after = JSON.parse(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>>
    expect(after['model']).toBe('x')
    expect(Object.keys(after['mcp']!)).toEqual(['other', 'ask-user'])
    expect(after['mcp']!['ask-user']).toEqual({
      type: 'local',
      command: [BIN, 'mcp'],
      environment: { ASK_USER_HOME: companion },
      enabled: true,
      timeout: 86_400_000,
    })
    expect((await setup('opencode', '--remove')).out).toBe(
      `${file}: removed permission.ask-user_*\n${file}: removed mcp.ask-user\n`,
    )
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      model: 'x',
      mcp: { other: { type: 'local', command: ['o'] } },
    })
  })

  it("says so when the client's own CLI is not on PATH, and changes nothing", async () => {
    expect(await setup('claude-code')).toEqual({
      code: 1,
      out: '',
      err: 'Error: claude is not on PATH; install it first, or run `ask-user setup claude-code --print` for the lines to apply by hand\n',
    })
    expect((await setup('claude-code', '--hooks')).err).toBe(
      'Error: claude is not on PATH; install it first, or run `ask-user setup claude-code --hooks --print` for the lines to apply by hand\n',
    )
  })

  it('refuses an unknown or missing client and extra arguments with exit 2', async () => {
    const list = 'claude-code, codex, gemini, qwen, opencode, copilot, cursor'
    expect(await setup('vim')).toEqual({ code: 2, out: '', err: `Error: unknown client "vim"; one of ${list}\n` })
    expect(await setup()).toEqual({ code: 2, out: '', err: `Error: which client? One of ${list}\n` })
    expect(await setup('codex', 'more')).toEqual({
      code: 2,
      out: '',
      err: `Error: unexpected argument "more"; one of ${list}\n`,
    })
    expect((await setup('--help')).out).toMatch(
      /^Usage: ask-user setup <client> \[--hooks\] \[--print\] \[--remove\]\n/,
    )
    expect(await setup('cursor', '--hooks')).toEqual({
      code: 2,
      out: '',
      err: 'Error: cursor has no hooks ask-user can answer; --hooks works for claude-code, codex, gemini, qwen, opencode, copilot\n',
    })
  })
})
