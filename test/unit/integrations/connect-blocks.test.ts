// The "Connect an agent" lines: exact text per harness, checked against what each client's own
// `mcp add` accepted at the version each harness's record pins (`published` in integrations/<id>.ts;
// see docs/integrations.md).
import { describe, expect, it } from 'vitest'
import { quote } from '../../../integrations/command-line'
import { connectBlocks, hooksBlock, planBlocks, shellBlocks } from '../../../integrations/connect-blocks'
import type { SetupStep } from '../../../integrations/setup-steps'
import { HARNESS_BY_ID, HARNESSES } from '../../../integrations/index'
import type { ConnectInfo } from '../../../shared/connect'

const linux: ConnectInfo = {
  commandLine: { command: '/home/ann/.local/bin/ask-user', args: [] },
  env: { ASK_USER_HOME: '/home/ann/.config/ask-user-companion' },
  platform: 'linux',
}

describe('connectBlocks', () => {
  const setupLine = (client: string): { kind: 'command'; text: string } => ({
    kind: 'command',
    text: `ASK_USER_HOME=/home/ann/.config/ask-user-companion /home/ann/.local/bin/ask-user setup ${client}`,
  })

  it('Claude Code: the setup line, then add-json at user scope and the permission entry', () => {
    expect(connectBlocks(HARNESS_BY_ID['claude-code'], linux)).toEqual([
      setupLine('claude-code'),
      {
        kind: 'command',
        text:
          `claude mcp add-json --scope user ask-user '{"type":"stdio","command":"/home/ann/.local/bin/ask-user","args":["mcp"],` +
          `"env":{"ASK_USER_HOME":"/home/ann/.config/ask-user-companion"}}'`,
      },
      {
        kind: 'json',
        file: '~/.claude/settings.json',
        text: '{\n  "permissions": {\n    "allow": [\n      "mcp__ask-user__ask_user_question"\n    ]\n  }\n}',
      },
    ])
  })

  it('Codex: the setup line, codex mcp add with env, then the TOML keys it cannot set', () => {
    expect(connectBlocks(HARNESS_BY_ID['codex'], linux)).toEqual([
      setupLine('codex'),
      {
        kind: 'command',
        text: 'codex mcp add ask-user --env ASK_USER_HOME=/home/ann/.config/ask-user-companion -- /home/ann/.local/bin/ask-user mcp',
      },
      {
        kind: 'toml',
        file: '~/.codex/config.toml',
        text:
          '[mcp_servers.ask-user]\nenv_vars = ["ASK_USER_URL", "ASK_USER_TOKEN_FILE", "ASK_USER_TOKEN"]\ntool_timeout_sec = 86400\n\n' +
          '[mcp_servers.ask-user.tools.ask_user_question]\napproval_mode = "approve"',
      },
    ])
  })

  it('Gemini CLI and Qwen Code: options before the name, no --, user scope, trusted, a day in ms', () => {
    const line = (cli: string): string =>
      `${cli} mcp add -s user --trust --timeout 86400000 -e ASK_USER_HOME=/home/ann/.config/ask-user-companion ask-user /home/ann/.local/bin/ask-user mcp`
    expect(connectBlocks(HARNESS_BY_ID['gemini'], linux)).toEqual([
      setupLine('gemini'),
      { kind: 'command', text: line('gemini') },
    ])
    expect(connectBlocks(HARNESS_BY_ID['qwen'], linux)).toEqual([
      setupLine('qwen'),
      { kind: 'command', text: line('qwen') },
    ])
  })

  it('opencode and Cursor: JSON entries with the command, its environment and (opencode) the timeout and permission', () => {
    const [setup, opencode, ...rest] = connectBlocks(HARNESS_BY_ID['opencode'], linux)
    expect(setup).toEqual(setupLine('opencode'))
    expect(rest).toEqual([])
    expect(opencode?.file).toBe('~/.config/opencode/opencode.jsonc')
    expect(JSON.parse(opencode!.text)).toEqual({
      mcp: {
        'ask-user': {
          type: 'local',
          command: ['/home/ann/.local/bin/ask-user', 'mcp'],
          environment: linux.env,
          enabled: true,
          timeout: 86400000,
        },
      },
      permission: { 'ask-user_*': 'allow' },
    })
    const [, cursor] = connectBlocks(HARNESS_BY_ID['cursor'], linux)
    expect(cursor?.file).toBe('~/.cursor/mcp.json')
    expect(JSON.parse(cursor!.text)).toEqual({
      mcpServers: {
        'ask-user': { type: 'stdio', command: '/home/ann/.local/bin/ask-user', args: ['mcp'], env: linux.env },
      },
    })
  })

  it('a source checkout on Windows: node and the script, double-quoted where there are spaces', () => {
    const windows: ConnectInfo = {
      commandLine: {
        command: 'C:\\Program Files\\nodejs\\node.exe',
        args: ['C:\\src\\ask-user-companion\\bin\\ask-user.js'],
      },
      env: { ASK_USER_HOME: 'C:\\Users\\Ann Lee\\AppData\\Roaming\\ask-user-companion' },
      platform: 'win32',
    }
    expect(connectBlocks(HARNESS_BY_ID['claude-code'], windows)[0]!.text).toBe(
      'set "ASK_USER_HOME=C:\\Users\\Ann Lee\\AppData\\Roaming\\ask-user-companion" && ' +
        '"C:\\Program Files\\nodejs\\node.exe" C:\\src\\ask-user-companion\\bin\\ask-user.js setup claude-code',
    )
    expect(connectBlocks(HARNESS_BY_ID['codex'], windows)[1]!.text).toBe(
      'codex mcp add ask-user --env "ASK_USER_HOME=C:\\Users\\Ann Lee\\AppData\\Roaming\\ask-user-companion" -- ' +
        '"C:\\Program Files\\nodejs\\node.exe" C:\\src\\ask-user-companion\\bin\\ask-user.js mcp',
    )
    expect(shellBlocks(windows)[0]!.text).toBe(
      'set "ASK_USER_HOME=C:\\Users\\Ann Lee\\AppData\\Roaming\\ask-user-companion" && ' +
        '"C:\\Program Files\\nodejs\\node.exe" C:\\src\\ask-user-companion\\bin\\ask-user.js ask --question "Deploy now?" --option Yes --option No',
    )
    expect(shellBlocks(linux)[0]!.text).toBe(
      'ASK_USER_HOME=/home/ann/.config/ask-user-companion /home/ann/.local/bin/ask-user ask --question "Deploy now?" --option Yes --option No',
    )
  })

  it('applies by hand in one block per file: JSON entries of one file merged, arrays joined, in first-seen order', () => {
    const steps: SetupStep[] = [
      { kind: 'json-item', file: '~/a.json', path: ['permissions', 'allow'], item: 'x' },
      { kind: 'run', argv: ['tool', 'add'], remove: ['tool', 'rm'], entry: { file: '~/b.json', path: [], value: {} } },
      { kind: 'json-item', file: '~/a.json', path: ['permissions', 'allow'], item: 'y' },
      { kind: 'json-item', file: '~/a.json', path: ['permissions', 'deny'], item: 'z' },
      { kind: 'hook', file: '~/a.json', event: 'Stop', handler: { type: 'command', command: 'h', timeout: 30 } },
      { kind: 'hook', file: '~/a.json', event: 'Stop', handler: { type: 'command', command: 'i', timeout: 30 } },
      { kind: 'json', file: '~/c.json', path: ['k'], value: 1 },
    ]
    const blocks = planBlocks(steps, linux)
    expect(blocks.map((block) => [block.kind, block.file])).toEqual([
      ['json', '~/a.json'],
      ['command', undefined],
      ['json', '~/c.json'],
    ])
    expect(JSON.parse(blocks[0]!.text)).toEqual({
      permissions: { allow: ['x', 'y'], deny: ['z'] },
      hooks: {
        Stop: [
          { hooks: [{ type: 'command', command: 'h', timeout: 30 }] },
          { hooks: [{ type: 'command', command: 'i', timeout: 30 }] },
        ],
      },
    })
  })

  it('offers the --hooks line exactly for the harnesses whose record has hooks', () => {
    for (const harness of HARNESSES) {
      expect(hooksBlock(harness, linux)).toEqual(
        harness.hooks === undefined
          ? undefined
          : {
              kind: 'command',
              text: `ASK_USER_HOME=/home/ann/.config/ask-user-companion /home/ann/.local/bin/ask-user setup ${harness.id} --hooks`,
            },
      )
    }
    expect(hooksBlock(HARNESS_BY_ID.cursor, linux)).toBeUndefined()
    expect(hooksBlock(HARNESS_BY_ID['claude-code'], linux)).toBeDefined()
  })

  it('has blocks for every harness the panel lists', () => {
    for (const harness of HARNESSES) expect(connectBlocks(harness, linux).length).toBeGreaterThan(0)
  })
})

describe('quote', () => {
  it('leaves plain words bare and quotes the rest for the shell', () => {
    expect(quote('/usr/local/bin/ask-user', 'darwin')).toBe('/usr/local/bin/ask-user')
    expect(quote("/Users/ann/it's here/ask-user", 'darwin')).toBe(`'/Users/ann/it'\\''s here/ask-user'`)
    expect(quote('/opt/$HOME/x', 'linux')).toBe(`'/opt/$HOME/x'`)
    expect(quote('C:\\a b\\ask-user.cmd', 'win32')).toBe('"C:\\a b\\ask-user.cmd"')
  })
})
