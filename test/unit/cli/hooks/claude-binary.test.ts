// The real Claude Code binary, set up by `ask-user setup claude-code --hooks`, in a pseudo-terminal
// (`script`), pointed at a scripted stand-in for the Messages API on 127.0.0.1 (no login, no model).
// One session, turn by turn: the model calls ask_user_question through `ask-user mcp`; then Claude's
// own AskUserQuestion, which the PreToolUse hook brings to the companion; then Bash, whose permission
// prompt the PermissionRequest hook brings as an approval; then the hook tool itself, which the deny
// rule setup wrote must keep from the model. Both hooks are `mcp_tool` hooks: Claude calls the hook
// tool of the `ask-user mcp` it runs, no process per event. A `tee` in front of that server keeps what
// Claude sent it, so the last test reads the `_meta` of the model's call and of the hooks' calls.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calledByModel } from '../../../../integrations/claude-code/hook-tool'
import { HOOK_TOOL_NAME } from '../../../../integrations/claude-code/hook-tool-names'
import { HARNESS_BY_ID } from '../../../../integrations/index'
import type { V1Ask as Ask } from '../../../../core/ask-v1'
import { agentKey } from '../../../../shared/agent-key'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { startMessagesStandIn, type MessagesStandIn, type MessagesToolResult } from '../../../helpers/model-stand-in'
import { installPublished } from '../../../helpers/published-client'
import { runProcess } from '../../../helpers/run-process'
import { removeScratchHome } from '../../../helpers/scratch-home'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { BIN, ensureBuilt } from '../built-cli'

const published = HARNESS_BY_ID['claude-code'].published
const claude = await installPublished(published)
const SCRIPT = '/usr/bin/script'
const skip = !claude.ok
  ? claude.reason
  : !existsSync(SCRIPT)
    ? 'no /usr/bin/script for a pseudo-terminal'
    : process.platform === 'win32'
      ? 'POSIX only'
      : undefined

const MCP_QUESTION = {
  questions: [{ id: 'db', question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] }],
}
const QUESTIONS = {
  questions: [
    {
      question: 'Which package manager?',
      header: 'Tooling',
      options: [
        { label: 'pnpm', description: 'Fast' },
        { label: 'npm', description: 'Default' },
      ],
      multiSelect: false,
    },
  ],
}
const BASH = { command: "sh -c 'echo hi > made-by-bash'", description: 'Make a file' }

/** The model's turns, in order: each calls one tool; after the last tool's result it ends the turn. */
const TURNS: [id: string, tool: string, input: object][] = [
  ['toolu_1', 'mcp__ask-user__ask_user_question', MCP_QUESTION],
  ['toolu_2', 'AskUserQuestion', QUESTIONS],
  ['toolu_3', 'Bash', BASH],
  [
    'toolu_4',
    `mcp__ask-user__${HOOK_TOOL_NAME}`,
    { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: '{"command":"rm -rf ~"}' },
  ],
]

beforeAll(() => ensureBuilt(), 120_000)

describe.skipIf(skip !== undefined)(
  `Claude Code ${skip ? `(skipped: ${skip})` : published.version} with ask-user setup claude-code --hooks`,
  { timeout: 90_000 },
  () => {
    let home: string
    let project: string
    let tc: TestCompanion
    let ui: UiClient
    let api: MessagesStandIn
    let session: ChildProcess | undefined
    let mcpLog: string
    /** The agent of the model's ask_user_question: the hooks' asks must be the same agent (one group). */
    let modelAgent: Ask['agent'] | undefined
    const result = (id: string): Promise<MessagesToolResult> => api.resultOf(id)

    beforeAll(async () => {
      if (!claude.ok) throw new Error(claude.reason)
      home = await mkdtemp(join(tmpdir(), 'ask-user-claude-pty-home-'))
      project = await mkdtemp(join(tmpdir(), 'ask-user-claude-pty-project-'))
      mcpLog = join(home, 'mcp-in.jsonl')
      tc = await startTestCompanion({ home: join(home, '.config', 'ask-user-companion') })
      ui = await connectUi(tc.companion)
      // The model plays TURNS, one tool call per turn, and ends after the last tool's result.
      api = await startMessagesStandIn((results) => {
        const turn = TURNS[results.length]
        return turn && { id: turn[0], name: turn[1], input: turn[2] }
      })
      const env = {
        HOME: home,
        PATH: [claude.binDir, dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
        LANG: 'C.UTF-8',
      }
      const setup = await runProcess(process.execPath, [BIN, 'setup', 'claude-code', '--hooks'], project, env)
      expect(setup.code).toBe(0)
      // What Claude's first run would ask in the terminal, answered ahead: onboarding, the key, the folder's trust.
      const key = 'sk-ant-test-0000000000000000000000'
      const state = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as Record<string, unknown>
      const seeded = {
        ...state,
        hasCompletedOnboarding: true,
        theme: 'dark',
        customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
        projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
      }
      // What Claude sends its MCP server is kept, line for line, by a `tee` in front of `ask-user mcp`.
      const servers = state['mcpServers'] as Record<string, { command: string; args: string[] }>
      const entry = servers['ask-user']!
      servers['ask-user'] = {
        ...entry,
        command: '/bin/sh',
        args: ['-c', 'tee -a "$0" | "$@"', mcpLog, entry.command, ...entry.args],
      }
      await writeFile(join(home, '.claude.json'), JSON.stringify(seeded))
      // `--permission-mode default`: 2.1.332 starts in auto mode, whose check runs on Anthropic's side
      // and cannot reach a stand-in. ENABLE_TOOL_SEARCH=false: MCP tools are sent with the others, not
      // deferred behind ToolSearch, so the stand-in can call one straight away.
      session = spawn(SCRIPT, ['-qfec', `${claude.command} --permission-mode default 'ask me things'`, '/dev/null'], {
        cwd: project,
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: {
          ...env,
          TERM: 'xterm',
          ANTHROPIC_BASE_URL: api.url,
          ANTHROPIC_API_KEY: key,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          ENABLE_TOOL_SEARCH: 'false',
        },
      })
    }, 90_000)
    afterAll(async () => {
      if (session?.pid !== undefined) {
        try {
          process.kill(-session.pid, 'SIGKILL')
        } catch {
          /* already gone */
        }
      }
      await ui?.close()
      await tc?.cleanup()
      await api?.close()
      // Claude's hooks and `ask-user mcp` outlive the group kill and write into HOME as they exit.
      if (home) await removeScratchHome(home)
      await rm(project, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
    })

    it('the model’s ask_user_question goes through ask-user mcp and gets the answer', async () => {
      const ask = await ui.nextAsk(undefined, 60_000)
      expect(ask.questions).toEqual(MCP_QUESTION.questions)
      // Claude starts its MCP servers with CLAUDE_CODE_SESSION_ID: the ask names the session as the hooks do.
      expect(ask.agent).toMatchObject({ name: 'Claude Code', session: expect.any(String) })
      modelAgent = ask.agent
      await ui.answer(ask.askId, [{ id: 'db', selected: ['SQLite'] }])
      const got = await result('toolu_1')
      expect(got.is_error).toBeFalsy()
      expect(JSON.stringify(got.content)).toContain(
        JSON.stringify('{"answers":[{"id":"db","selected":["SQLite"]}]}').slice(1, -1),
      )
    })

    it('the question card answers Claude’s AskUserQuestion, through the PreToolUse hook', async () => {
      const ask = await ui.nextAsk(undefined, 60_000)
      expect(ask.agent).toMatchObject({ name: 'Claude Code', cwd: project })
      expect(agentKey(ask.agent)).toBe(agentKey(modelAgent!))
      expect(ask.questions).toEqual([
        {
          id: 'q1',
          question: 'Which package manager?',
          header: 'Tooling',
          options: [
            { label: 'pnpm', description: 'Fast' },
            { label: 'npm', description: 'Default' },
          ],
        },
      ])
      await ui.answer(ask.askId, [{ id: 'q1', selected: ['pnpm'] }])
      const got = JSON.stringify(await result('toolu_2'))
      expect(got).not.toContain('"is_error":true')
      // Claude's own wording of an answered AskUserQuestion: the answers map reached the tool.
      expect(got).toContain(JSON.stringify('"Which package manager?"="pnpm"').slice(1, -1))
    })

    it('Bash’s permission prompt is an approval card; Allow runs the command', async () => {
      const ask = await ui.nextAsk(undefined, 60_000)
      expect(ask.agent).toMatchObject({ name: 'Claude Code', cwd: project, title: expect.stringMatching(/^session /) })
      expect(agentKey(ask.agent)).toBe(agentKey(modelAgent!))
      // Every field the card needs came through the hook's input, the permission suggestions (Always allow) too.
      expect(ask.approval).toMatchObject({
        tool: 'Bash',
        harness: 'claude-code',
        action: { kind: 'command', command: BASH.command, description: BASH.description, cwd: project },
        always: { label: expect.stringContaining('Bash(') },
      })
      expect(await ui.decide(ask.askId, { behavior: 'allow' })).toMatchObject({ type: 'accepted' })
      expect((await result('toolu_3')).is_error).toBeFalsy()
      expect(await readFile(join(project, 'made-by-bash'), 'utf8')).toBe('hi\n')
    })

    it('the model can neither see nor call the hook tool', async () => {
      const got = await result('toolu_4')
      expect(got).toMatchObject({ is_error: true })
      expect(JSON.stringify(got.content)).toContain(`No such tool available: mcp__ask-user__${HOOK_TOOL_NAME}`)
      await api.ended
      // The server's tools were sent (the first request may go out before it connected), never the hook tool.
      expect(api.offered.filter((tools) => tools.includes('mcp__ask-user__ask_user_question')).length).toBeGreaterThan(
        0,
      )
      expect(api.offered.filter((tools) => tools.includes(`mcp__ask-user__${HOOK_TOOL_NAME}`))).toEqual([])
      // Nothing reached the inbox from that call.
      expect(ui.frames.filter((frame) => frame.type === 'question/added')).toHaveLength(3)
    })

    it('on the wire (MCP 2026-07-28): the model’s call carries claudecode/toolUseId and a progress token, the hooks’ calls only the revision’s _meta, so only the model’s counts as “asked by the model”', async () => {
      await api.ended
      type Sent = { method?: string; params?: { name?: string; _meta?: Record<string, unknown> } }
      const sent = (await readFile(mcpLog, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Sent)
      // No initialize: Claude Code 2.1.332 speaks the 2026-07-28 revision, each request naming it and the client.
      expect(sent.some((m) => m.method === 'initialize')).toBe(false)
      const calls = sent.filter((m) => m.method === 'tools/call').map((m) => m.params!)
      expect(calls.map((call) => call.name)).toEqual(['ask_user_question', HOOK_TOOL_NAME, HOOK_TOOL_NAME])
      const revision = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': expect.objectContaining({
          name: 'claude-code',
          version: published.version,
        }),
        'io.modelcontextprotocol/clientCapabilities': expect.any(Object),
      }
      const [model, ...hooks] = calls
      expect(model!._meta).toEqual({ ...revision, 'claudecode/toolUseId': 'toolu_1', progressToken: expect.anything() })
      expect(calledByModel(model!._meta)).toBe(true)
      for (const hook of hooks) {
        expect(hook._meta).toEqual(revision)
        expect(calledByModel(hook._meta)).toBe(false)
      }
    })
  },
)
