// `ask-user setup <client>` against each client's real published CLI: installed into a cache folder
// (reused between runs), run in a fresh HOME from a project folder outside the checkout. The client's
// own `mcp list` must show the server connected, and a real tool call (the MCP Inspector's CLI on the
// entry the client's file holds, or `codex app-server`) must come back with the person's answer.
// No login, no model. Where npm cannot install a client, its tests are skipped with the reason.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HARNESS_BY_ID, HARNESSES } from '../../../integrations/index'
import { HARNESS_IDS, type HarnessId } from '../../../integrations/ids'
import { startCodexAppServer } from '../../helpers/codex-app-server'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import {
  installPublished,
  registryUnreachable,
  type Installed,
  type PublishedClient,
} from '../../helpers/published-client'
import { runProcess, type ProcessResult } from '../../helpers/run-process'
import { connectUi, type UiClient } from '../../helpers/ui-client'
import { BIN, ensureBuilt } from './built-cli'

/** Each harness's CLI at the version its record pins (`published`), the one docs/integrations.md names. */
const CLIENTS = HARNESSES.flatMap((harness) => (harness.published ? [harness.published] : []))
const INSPECTOR: PublishedClient = { pkg: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'mcp-inspector' }

const installed = new Map<string, Installed>()
let unreachable: string | undefined
for (const client of [INSPECTOR, ...CLIENTS]) {
  // Once the registry has proved unreachable, the rest are skipped for that reason (cached ones still run).
  const result = await installPublished(client, 300_000, unreachable)
  if (!result.ok && registryUnreachable(result.reason)) unreachable ??= result.reason
  installed.set(client.pkg, result)
  if (result.ok && !result.cached)
    console.log(`installed ${client.pkg}@${client.version} in ${result.seconds.toFixed(1)} s`)
}
const inspector = installed.get(INSPECTOR.pkg)!

/** Why a client's tests are skipped, or undefined. */
function skipReason(client: HarnessId): string | undefined {
  if (!inspector.ok) return inspector.reason
  if (client === 'cursor') return undefined
  const got = installed.get(HARNESS_BY_ID[client].published.pkg)!
  return got.ok ? undefined : got.reason
}

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '')
const question = { id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }
const answerText = '{"answers":[{"id":"pkg","selected":["pnpm"]}]}'

/** A fresh HOME, a project folder outside the checkout, and a companion where setup points agents. */
interface World {
  home: string
  project: string
  env: Record<string, string>
  tc: TestCompanion
  ui: UiClient
  /** Runs `command args` in the project folder with the world's environment (plus `extra`). */
  run(command: string, args: string[], extra?: Record<string, string>): Promise<ProcessResult>
  setup(client: HarnessId, ...flags: string[]): Promise<ProcessResult>
  /** Calls the tool once through `call` while the window answers "pnpm"; resolves with what `call` printed. */
  answered(call: () => Promise<ProcessResult>): Promise<ProcessResult>
  cleanup(): Promise<void>
}

async function world(client: HarnessId): Promise<World> {
  const home = await mkdtemp(join(tmpdir(), `ask-user-setup-${client}-home-`))
  const project = await mkdtemp(join(tmpdir(), `ask-user-setup-${client}-project-`))
  const got = client === 'cursor' ? undefined : installed.get(HARNESS_BY_ID[client].published.pkg)
  const binDirs = [got?.ok ? got.binDir : undefined, dirname(process.execPath), '/usr/bin', '/bin'].filter(
    (d) => d !== undefined,
  )
  const env = { HOME: home, PATH: binDirs.join(':'), LANG: 'C.UTF-8' }
  // Where `ask-user setup` sends agents in this HOME: the default companion folder.
  const tc = await startTestCompanion({ home: join(home, '.config', 'ask-user-companion') })
  const ui = await connectUi(tc.companion)
  const run = (command: string, args: string[], extra: Record<string, string> = {}): Promise<ProcessResult> =>
    runProcess(command, args, project, { ...env, ...extra })
  return {
    home,
    project,
    env,
    tc,
    ui,
    run,
    setup: (name, ...flags) => run(process.execPath, [BIN, 'setup', name, ...flags]),
    async answered(call) {
      const result = call()
      const ask = await ui.nextAsk(undefined, 30_000)
      expect(ask.questions).toEqual([question])
      await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
      return result
    },
    async cleanup() {
      await ui.close()
      await tc.cleanup()
      await rm(home, { recursive: true, force: true })
      await rm(project, { recursive: true, force: true })
    },
  }
}

/** `mcp-inspector --cli … --method tools/call` on `target` (a config file's server, or a command line). */
function inspectorCall(w: World, target: string[]): Promise<ProcessResult> {
  if (!inspector.ok) throw new Error(inspector.reason)
  const toolArgs = [
    '--method',
    'tools/call',
    '--tool-name',
    'ask_user_question',
    '--tool-arg',
    `questions=${JSON.stringify([question])}`,
  ]
  return w.run(inspector.command, ['--cli', ...target, ...toolArgs])
}

function expectAnswered(result: ProcessResult): void {
  expect(result.code).toBe(0)
  expect(JSON.parse(result.stdout)).toEqual({ content: [{ type: 'text', text: answerText }], isError: false })
}

async function json(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
}

beforeAll(() => ensureBuilt(), 120_000)

const cases: readonly HarnessId[] = HARNESS_IDS
for (const client of cases) {
  const reason = skipReason(client)
  describe.skipIf(reason !== undefined)(
    `ask-user setup ${client}${reason ? ` (skipped: ${reason})` : ''}`,
    { timeout: 90_000 },
    () => {
      let w: World
      beforeAll(async () => {
        w = await world(client)
      }, 60_000)
      afterAll(async () => w?.cleanup())

      const companionHome = (): string => join(w.home, '.config', 'ask-user-companion')

      it('sets the client up, then says there is nothing to change', async () => {
        const first = await w.setup(client)
        expect(first.stderr.replace(/^WARNING: proceeding.*\n/gm, '')).toBe('')
        expect(first.code).toBe(0)
        expect(plain(first.stdout)).toBe(EXPECTED_SETUP[client](w.home, companionHome()))
        const again = await w.setup(client)
        expect(again.code).toBe(0)
        expect(again.stdout).toBe(`already set up: nothing to change\n${NOTES[client]}`)
      })

      it("the client's own list shows the server connected, and a real tool call is answered", async () => {
        await CHECKS[client](w)
      })

      it('--remove takes the entries out, and a second --remove has nothing to do', async () => {
        const removed = await w.setup(client, '--remove')
        expect(removed.code).toBe(0)
        expect(removed.stdout).not.toBe('not set up: nothing to remove\n')
        const again = await w.setup(client, '--remove')
        expect(again.stdout).toBe('not set up: nothing to remove\n')
        await REMOVED[client](w)
      })
    },
  )
}

const GEMINI_NOTE =
  'note: Gemini CLI starts no MCP server in a folder it does not trust: trust your project folders when it asks.\n'
const CURSOR_NOTE =
  'note: Cursor has no per-server tool timeout; a question left longer than its limit (reported: 5 minutes) is withdrawn.\n'
const COPILOT_NOTE =
  "note: Copilot CLI keeps no user-level allow rule for one MCP tool: start it with --allow-tool='ask-user(ask_user_question)' to let it ask without a prompt.\n"
const NOTES: Record<HarnessId, string> = {
  'claude-code': '',
  codex: '',
  gemini: GEMINI_NOTE,
  qwen: '',
  opencode: '',
  copilot: COPILOT_NOTE,
  cursor: CURSOR_NOTE,
}

const EXPECTED_SETUP: Record<HarnessId, (home: string, companion: string) => string> = {
  'claude-code': (home, companion) =>
    `ran: claude mcp add-json --scope user ask-user '${JSON.stringify({ type: 'stdio', command: BIN, args: ['mcp'], env: { ASK_USER_HOME: companion } })}'\n` +
    `${home}/.claude/settings.json: added "mcp__ask-user__ask_user_question" to permissions.allow\n`,
  codex: (home, companion) =>
    `ran: codex mcp add ask-user --env ASK_USER_HOME=${companion} -- ${BIN} mcp\n` +
    `${home}/.codex/config.toml: set env_vars, tool_timeout_sec in [mcp_servers.ask-user]\n` +
    `${home}/.codex/config.toml: set approval_mode in [mcp_servers.ask-user.tools.ask_user_question]\n`,
  gemini: (_home, companion) =>
    `ran: gemini mcp add -s user --trust --timeout 86400000 -e ASK_USER_HOME=${companion} ask-user ${BIN} mcp\n${GEMINI_NOTE}`,
  qwen: (_home, companion) =>
    `ran: qwen mcp add -s user --trust --timeout 86400000 -e ASK_USER_HOME=${companion} ask-user ${BIN} mcp\n`,
  opencode: (home) =>
    `${home}/.config/opencode/opencode.jsonc: set mcp.ask-user\n${home}/.config/opencode/opencode.jsonc: set permission.ask-user_*\n`,
  copilot: (_home, companion) =>
    `ran: copilot mcp add --timeout 86400000 --env ASK_USER_HOME=${companion} ask-user -- ${BIN} mcp\n${COPILOT_NOTE}`,
  cursor: (home) => `${home}/.cursor/mcp.json: set mcpServers.ask-user\n${CURSOR_NOTE}`,
}

const CHECKS: Record<HarnessId, (w: World) => Promise<void>> = {
  async 'claude-code'(w) {
    const list = await w.run('claude', ['mcp', 'list'])
    expect(plain(list.stdout)).toContain(`ask-user: ${BIN} mcp - ✔ Connected`)
    expect((await json(join(w.home, '.claude', 'settings.json')))['permissions']).toEqual({
      allow: ['mcp__ask-user__ask_user_question'],
    })
    expectAnswered(
      await w.answered(() => inspectorCall(w, ['--config', join(w.home, '.claude.json'), '--server', 'ask-user'])),
    )
  },
  async codex(w) {
    const list = await w.run('codex', ['mcp', 'list'])
    expect(plain(list.stdout)).toMatch(
      new RegExp(`^ask-user +${BIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +mcp .*enabled`, 'm'),
    )
    const got = installed.get(HARNESS_BY_ID.codex.published.pkg)!
    if (!got.ok) throw new Error(got.reason)
    const server = await startCodexAppServer(got.command, w.env, w.project)
    try {
      // The thread starts its MCP servers in the background: poll its status until the tool is there.
      const deadline = Date.now() + 30_000
      let tools: Record<string, { title?: string; annotations?: unknown }> = {}
      while (Date.now() < deadline && !tools['ask_user_question']) {
        const status = (await server.request('mcpServerStatus/list', {})) as {
          data: { name: string; tools: typeof tools }[]
        }
        tools = status.data.find((entry) => entry.name === 'ask-user')?.tools ?? {}
      }
      expect(tools['ask_user_question']).toMatchObject({
        title: 'Ask the user',
        annotations: { readOnlyHint: true, destructiveHint: false },
      })
      const call = server.request('mcpServer/tool/call', {
        server: 'ask-user',
        threadId: server.threadId,
        tool: 'ask_user_question',
        arguments: { questions: [question] },
      })
      const ask = await w.ui.nextAsk(undefined, 30_000)
      await w.ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
      expect(await call).toMatchObject({ content: [{ type: 'text', text: answerText }] })
    } finally {
      server.close()
    }
  },
  async gemini(w) {
    // Untrusted folder: Gemini CLI keeps even user-level servers off (setup's note says so).
    const untrusted = await w.run('gemini', ['mcp', 'list'])
    expect(plain(untrusted.stdout + untrusted.stderr)).toMatch(/ask-user: .* - Disabled/)
    const list = await w.run('gemini', ['mcp', 'list'], { GEMINI_CLI_TRUST_WORKSPACE: 'true' })
    expect(plain(list.stdout + list.stderr)).toContain(`✓ ask-user: ${BIN} mcp (stdio) - Connected`)
    expectAnswered(
      await w.answered(() =>
        inspectorCall(w, ['--config', join(w.home, '.gemini', 'settings.json'), '--server', 'ask-user']),
      ),
    )
  },
  async qwen(w) {
    const list = await w.run('qwen', ['mcp', 'list'])
    expect(plain(list.stdout)).toContain(`✓ ask-user: ${BIN} mcp (stdio) - Connected`)
    expectAnswered(
      await w.answered(() =>
        inspectorCall(w, ['--config', join(w.home, '.qwen', 'settings.json'), '--server', 'ask-user']),
      ),
    )
  },
  async opencode(w) {
    const list = await w.run('opencode', ['mcp', 'list'])
    expect(plain(list.stdout)).toMatch(/✓ ask-user\s+connected/)
    const config = await json(join(w.home, '.config', 'opencode', 'opencode.jsonc'))
    const entry = (config['mcp'] as Record<string, { command: string[]; environment: Record<string, string> }>)[
      'ask-user'
    ]!
    const env = Object.entries(entry.environment).flatMap(([key, value]) => ['-e', `${key}=${value}`])
    // The Inspector takes the server's options first and the command last (a `--` would swallow --method).
    expectAnswered(await w.answered(() => inspectorCall(w, [...env, ...entry.command])))
  },
  async copilot(w) {
    // Copilot's `mcp list` does not start the servers: its own `list` and `get` show the entry as written
    // and enabled, and the Inspector runs that entry from Copilot's file.
    const list = await w.run('copilot', ['mcp', 'list'])
    expect(plain(list.stdout)).toContain('User servers:\n  ask-user (local)')
    const got = await w.run('copilot', ['mcp', 'get', 'ask-user'])
    expect(plain(got.stdout)).toContain(`ask-user\n  Status: Enabled\n  Type: local\n  Command: ${BIN} mcp\n`)
    expect(plain(got.stdout)).toContain('Timeout: 86400000ms\n  Source: User')
    expectAnswered(
      await w.answered(() =>
        inspectorCall(w, ['--config', join(w.home, '.copilot', 'mcp-config.json'), '--server', 'ask-user']),
      ),
    )
  },
  async cursor(w) {
    // Cursor's CLI is not on npm: the Inspector runs the entry as Cursor's file holds it.
    expectAnswered(
      await w.answered(() =>
        inspectorCall(w, ['--config', join(w.home, '.cursor', 'mcp.json'), '--server', 'ask-user']),
      ),
    )
  },
}

const REMOVED: Record<HarnessId, (w: World) => Promise<void>> = {
  async 'claude-code'(w) {
    expect((await json(join(w.home, '.claude.json')))['mcpServers'] ?? {}).toEqual({})
    expect(await json(join(w.home, '.claude', 'settings.json'))).toEqual({ permissions: { allow: [] } })
  },
  async codex(w) {
    expect(await readFile(join(w.home, '.codex', 'config.toml'), 'utf8')).not.toContain('ask-user')
  },
  async gemini(w) {
    expect((await json(join(w.home, '.gemini', 'settings.json')))['mcpServers'] ?? {}).toEqual({})
  },
  async qwen(w) {
    expect((await json(join(w.home, '.qwen', 'settings.json')))['mcpServers'] ?? {}).toEqual({})
  },
  async opencode(w) {
    const config = await json(join(w.home, '.config', 'opencode', 'opencode.jsonc'))
    expect(config['mcp']).toBeUndefined()
    expect(config['permission']).toBeUndefined()
  },
  async copilot(w) {
    expect((await json(join(w.home, '.copilot', 'mcp-config.json')))['mcpServers'] ?? {}).toEqual({})
    expect(plain((await w.run('copilot', ['mcp', 'list'])).stdout)).not.toContain('ask-user')
  },
  async cursor(w) {
    expect(await json(join(w.home, '.cursor', 'mcp.json'))).toEqual({})
  },
}
