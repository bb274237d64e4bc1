// `ask-user setup <harness> --hooks` in a fresh HOME beside a hook of the person's own, with each
// harness's real CLI from the published-client cache (its own `mcp add` runs first). Codex's own
// app-server must list the hooks it wrote; the opencode plugin is loaded and driven with a real
// companion. No login, no model. Where npm cannot install a client, its tests are skipped.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HARNESS_BY_ID } from '../../../../integrations/index'
import { hookToolInput } from '../../../../integrations/claude-code/hook-tool'
import {
  HOOK_TOOL_DENY_RULE,
  HOOK_TOOL_FLAG,
  HOOK_TOOL_NAME,
} from '../../../../integrations/claude-code/hook-tool-names'
import { startCodexAppServer } from '../../../helpers/codex-app-server'
import { startTestCompanion } from '../../../helpers/companion'
import { startModelStandIn, type ModelApi } from '../../../helpers/model-stand-in'
import { installPublished, type Installed } from '../../../helpers/published-client'
import { runProcess, type ProcessResult } from '../../../helpers/run-process'
import { connectUi } from '../../../helpers/ui-client'
import { BIN, ensureBuilt } from '../built-cli'

/** The harnesses with hooks, each installed at the version its record pins (`published`). */
const CLIENTS = {
  'claude-code': HARNESS_BY_ID['claude-code'].published,
  codex: HARNESS_BY_ID.codex.published,
  gemini: HARNESS_BY_ID.gemini.published,
  opencode: HARNESS_BY_ID.opencode.published,
  copilot: HARNESS_BY_ID.copilot.published,
  qwen: HARNESS_BY_ID.qwen.published,
}
const installed = new Map<string, Installed>()
for (const [name, client] of Object.entries(CLIENTS)) installed.set(name, await installPublished(client))

type SettingsHarness = 'claude-code' | 'codex' | 'gemini' | 'qwen' | 'copilot'
const SETTINGS: Record<SettingsHarness, string> = {
  'claude-code': '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
  qwen: '.qwen/settings.json',
  copilot: '.copilot/settings.json',
}
// The fourth entry: the event goes to the MCP server's hook tool (Claude Code's `mcp_tool`), not a command.
const EVENTS: Record<SettingsHarness, [string, string | undefined, number, 'mcp_tool'?][]> = {
  'claude-code': [
    ['PermissionRequest', '*', 86400, 'mcp_tool'],
    ['PreToolUse', 'AskUserQuestion', 86400, 'mcp_tool'],
    ['Notification', undefined, 30],
    ['Stop', undefined, 30],
  ],
  codex: [
    ['PermissionRequest', undefined, 600],
    ['Stop', undefined, 30],
  ],
  gemini: [
    ['BeforeTool', '^(run_shell_command|write_file|replace|web_fetch)$', 600_000],
    ['Notification', undefined, 30_000],
  ],
  qwen: [
    ['PermissionRequest', undefined, 600],
    ['Stop', undefined, 30],
  ],
  copilot: [
    ['PermissionRequest', undefined, 600],
    ['Stop', undefined, 30],
  ],
}
const mine = { hooks: [{ type: 'command', command: 'notify-send agent' }] }

/** How a harness's binary runs one session against a stand-in model, with no login: its shell tool and what its model is told on a deny. */
interface LiveSession {
  tool: string
  /** The model API the stand-in speaks. */
  api: ModelApi
  run(command: string, w: World, apiUrl: string): Promise<ProcessResult>
  /** Where a test starts the binary itself: the settings to write first, its arguments and its environment. */
  prepare?(w: World): Promise<void>
  args?: string[]
  env?(apiUrl: string): Record<string, string>
  deniedResult(message: string): string
}
const LIVE: Partial<Record<SettingsHarness, LiveSession>> = {
  // Bring-your-own-model mode; `-p` alone has no one to ask, so only the hook can allow.
  copilot: {
    tool: 'bash',
    api: 'chat-completions',
    run: (command, w, apiUrl) =>
      runProcess(command, ['-p', 'make the marker', '--no-auto-update'], w.project, {
        ...w.env,
        COPILOT_PROVIDER_BASE_URL: apiUrl,
        COPILOT_MODEL: 'gpt-4.1',
        COPILOT_PROVIDER_WIRE_API: 'completions',
      }),
    deniedResult: (message) => `Permission denied by a PermissionRequest hook: ${message}`,
  },
  // A Gemini API key (any) and its base URL; --yolo, so that after an Allow (nothing printed) its policy runs the tool.
  gemini: {
    tool: 'run_shell_command',
    api: 'gemini',
    prepare: async (w) => {
      const file = join(w.home, '.gemini', 'settings.json')
      const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
      await writeFile(file, JSON.stringify({ ...settings, security: { auth: { selectedType: 'gemini-api-key' } } }))
    },
    args: ['-p', 'make the marker', '--yolo', '-m', 'gemini-2.5-pro'],
    env: (apiUrl) => ({
      GEMINI_API_KEY: 'stand-in',
      GOOGLE_GEMINI_BASE_URL: apiUrl,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    }),
    run: async (command, w, apiUrl) => {
      const gemini = LIVE.gemini!
      await gemini.prepare!(w)
      return runProcess(command, gemini.args!, w.project, { ...w.env, ...gemini.env!(apiUrl) })
    },
    deniedResult: (message) => `Tool execution blocked: ${message}`,
  },
  // An OpenAI-compatible model; stream-json input, since with -p alone Qwen declines before any hook runs.
  qwen: {
    tool: 'run_shell_command',
    api: 'chat-completions',
    run: (command, w, apiUrl) =>
      runProcess(
        '/bin/sh',
        [
          '-c',
          `printf '%s\\n' "$1" | "$0" --auth-type openai --input-format stream-json --output-format stream-json`,
          command,
          JSON.stringify({ type: 'user', message: { role: 'user', content: 'make the marker' } }),
        ],
        w.project,
        { ...w.env, OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: apiUrl, OPENAI_MODEL: 'gpt-4.1' },
      ),
    deniedResult: (message) => message,
  },
}

beforeAll(() => ensureBuilt(), 120_000)

interface World {
  home: string
  project: string
  env: Record<string, string>
  setup(...flags: string[]): ReturnType<typeof runProcess>
}

async function world(name: keyof typeof CLIENTS): Promise<World> {
  const home = await mkdtemp(join(tmpdir(), `ask-user-hooks-${name}-home-`))
  const project = await mkdtemp(join(tmpdir(), `ask-user-hooks-${name}-project-`))
  const got = installed.get(name)!
  const env = {
    HOME: home,
    PATH: [got.ok ? got.binDir : '', dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    LANG: 'C.UTF-8',
  }
  return {
    home,
    project,
    env,
    setup: (...flags) => runProcess(process.execPath, [BIN, 'setup', name, ...flags], project, env),
  }
}

for (const name of ['claude-code', 'codex', 'gemini', 'qwen', 'copilot'] as const) {
  const got = installed.get(name)!
  describe.skipIf(!got.ok)(
    `ask-user setup ${name} --hooks${got.ok ? '' : ` (skipped: ${got.reason})`}`,
    { timeout: 90_000 },
    () => {
      let w: World
      beforeAll(async () => {
        w = await world(name)
        const file = join(w.home, SETTINGS[name])
        await mkdir(dirname(file), { recursive: true })
        await writeFile(file, `${JSON.stringify({ hooks: { Stop: [mine] } }, null, 2)}\n`)
      }, 60_000)
      afterAll(async () => {
        await rm(w.home, { recursive: true, force: true })
        await rm(w.project, { recursive: true, force: true })
      })
      const settings = async (): Promise<{ hooks?: Record<string, unknown[]> }> =>
        JSON.parse(await readFile(join(w.home, SETTINGS[name]), 'utf8'))
      const command = (): string => `ASK_USER_HOME=${join(w.home, '.config', 'ask-user-companion')} ${BIN} hook ${name}`

      it('adds our hook groups beside the person’s own, then has nothing to change', async () => {
        const first = await w.setup('--hooks')
        expect(first.code).toBe(0)
        for (const [event] of EVENTS[name])
          expect(first.stdout).toContain(`${join(w.home, SETTINGS[name])}: set the ask-user hook in hooks.${event}\n`)
        const hooks = (await settings()).hooks!
        for (const [event, matcher, timeout, type] of EVENTS[name]) {
          const handler =
            type === 'mcp_tool'
              ? { type, server: 'ask-user', tool: HOOK_TOOL_NAME, input: hookToolInput(), timeout }
              : { type: 'command', command: command(), timeout }
          const ours = { ...(matcher !== undefined ? { matcher } : {}), hooks: [handler] }
          expect(hooks[event]).toEqual(event === 'Stop' ? [mine, ours] : [ours])
        }
        const again = await w.setup('--hooks')
        expect(again.stdout.split('\n')[0]).toBe('already set up: nothing to change')
      })

      if (name === 'claude-code') {
        it('starts the MCP server with the hook tool and hides that tool from the model; a command hook of ours is replaced', async () => {
          const state = JSON.parse(await readFile(join(w.home, '.claude.json'), 'utf8')) as {
            mcpServers: Record<string, { args: string[] }>
          }
          expect(state.mcpServers['ask-user']!.args.at(-1)).toBe(HOOK_TOOL_FLAG)
          const file = join(w.home, SETTINGS[name])
          const written = JSON.parse(await readFile(file, 'utf8')) as {
            permissions: { deny: string[] }
            hooks: Record<string, unknown[]>
          }
          expect(written.permissions.deny).toEqual([HOOK_TOOL_DENY_RULE])
          // An earlier set-up's command hook for PermissionRequest gives way to the mcp_tool one.
          const ours = written.hooks['PermissionRequest']!
          written.hooks['PermissionRequest'] = [
            { matcher: '*', hooks: [{ type: 'command', command: command(), timeout: 86400 }] },
          ]
          await writeFile(file, JSON.stringify(written))
          expect((await w.setup('--hooks')).code).toBe(0)
          expect((await settings()).hooks!['PermissionRequest']).toEqual(ours)
        })
      }

      if (name === 'codex') {
        it("Codex's own app-server lists the hooks it will ask the person to trust", async () => {
          if (!got.ok) throw new Error(got.reason)
          const server = await startCodexAppServer(got.command, w.env, w.project)
          try {
            type Listed = {
              data: {
                hooks: { eventName: string; command: string; timeoutSec: number; trustStatus: string }[]
                errors: unknown[]
              }[]
            }
            const [entry] = ((await server.request('hooks/list', { cwds: [w.project] })) as Listed).data
            expect(entry!.errors).toEqual([])
            const ours = entry!.hooks
              .filter((hook) => hook.command === command())
              .map(({ eventName, timeoutSec, trustStatus }) => ({ eventName, timeoutSec, trustStatus }))
            // Parsed as written, and waiting for the person's trust in /hooks (setup's note says so).
            expect(ours).toEqual([
              { eventName: 'permissionRequest', timeoutSec: 600, trustStatus: 'untrusted' },
              { eventName: 'stop', timeoutSec: 30, trustStatus: 'untrusted' },
            ])
          } finally {
            server.close()
          }
        })
      }

      const live = LIVE[name as keyof typeof LIVE] as LiveSession | undefined
      if (live) {
        it(`${HARNESS_BY_ID[name].name}'s own binary runs the hook: the window's Deny reaches its model, its Allow runs the command`, async () => {
          if (!got.ok) throw new Error(got.reason)
          const tc = await startTestCompanion({ home: join(w.home, '.config', 'ask-user-companion') })
          const ui = await connectUi(tc.companion)
          const api = await startModelStandIn(live.api, live.tool)
          const marker = join(w.project, 'allowed')
          const session = (): Promise<ProcessResult> => live.run(got.command, w, api.url)
          try {
            api.input = { command: `touch ${marker}` }
            const denied = session()
            const first = await ui.nextAsk(undefined, 60_000)
            expect(first.agent).toMatchObject({ name: HARNESS_BY_ID[name].name, cwd: w.project })
            expect(first.approval).toEqual({
              tool: live.tool,
              harness: name,
              action: { kind: 'command', command: `touch ${marker}`, cwd: w.project },
            })
            await ui.decide(first.askId, { behavior: 'deny', message: 'Not now' })
            expect((await denied).code).toBe(0)
            expect(api.toolResults).toHaveLength(1)
            expect(api.toolResults[0]).toContain(live.deniedResult('Not now'))
            expect(existsSync(marker)).toBe(false)

            const allowed = session()
            await ui.decide((await ui.nextAsk(undefined, 60_000)).askId, { behavior: 'allow' })
            expect((await allowed).code).toBe(0)
            expect(existsSync(marker)).toBe(true)
          } finally {
            await api.close()
            await ui.close()
            await tc.cleanup()
          }
        })
      }

      if (name === 'gemini') {
        it("the window's Dismiss prints `ask`: even under --yolo Gemini then waits for its own confirmation (headless, for good) and does not run the command", async () => {
          if (!got.ok) throw new Error(got.reason)
          const tc = await startTestCompanion({ home: join(w.home, '.config', 'ask-user-companion') })
          const ui = await connectUi(tc.companion)
          const api = await startModelStandIn('gemini', 'run_shell_command')
          const marker = join(w.project, 'dismissed')
          api.input = { command: `touch ${marker}` }
          await LIVE.gemini!.prepare!(w)
          // Spawned here rather than run to its end: with no one at a terminal, Gemini never ends.
          // In a process group of its own: Gemini relaunches itself as a child (with a larger heap) that
          // outlives a signal to the parent, and that child starts `ask-user mcp`; all of them end below.
          const gemini = spawn(got.command, LIVE.gemini!.args!, {
            cwd: w.project,
            env: { ...w.env, ...LIVE.gemini!.env!(api.url) },
            stdio: ['ignore', 'pipe', 'pipe'],
            detached: true,
          })
          let stderr = ''
          gemini.stderr.setEncoding('utf8').on('data', (part: string) => (stderr += part))
          try {
            await ui.dismiss((await ui.nextAsk(undefined, 60_000)).askId)
            // Its confirmation prompt fires its Notification hook: the window hears that Gemini waits.
            const added = (await ui.nextFrame((f) => f.type === 'notice/added', 60_000)) as {
              notice: { agent: { name: string }; notice: { kind: string } }
            }
            expect(added.notice.agent.name).toBe('Gemini CLI')
            expect(added.notice.notice.kind).toBe('needs-input')
            expect(stderr).toContain('Hook system message: Dismissed in Ask User Companion: decide here.')
            expect(gemini.exitCode).toBe(null)
            expect(api.toolResults).toEqual([])
            expect(existsSync(marker)).toBe(false)
          } finally {
            const exited = new Promise((resolve) => gemini.once('close', resolve))
            process.kill(-gemini.pid!, 'SIGKILL')
            await exited
            await api.close()
            await ui.close()
            await tc.cleanup()
          }
        })
      }

      it('--remove --hooks takes out only ours', async () => {
        const removed = await w.setup('--remove', '--hooks')
        expect(removed.code).toBe(0)
        expect((await settings()).hooks).toEqual({ Stop: [mine] })
        if (name === 'claude-code')
          expect(JSON.parse(await readFile(join(w.home, SETTINGS[name]), 'utf8'))).toMatchObject({
            permissions: { deny: [] },
          })
      })
    },
  )
}

describe('ask-user setup opencode --hooks: the plugin', { timeout: 60_000 }, () => {
  const got = installed.get('opencode')!
  it.skipIf(!got.ok)(
    'writes the plugin; loaded with a client, it answers permission.asked from the inbox',
    async () => {
      const w = await world('opencode')
      const tc = await startTestCompanion({ home: join(w.home, '.config', 'ask-user-companion') })
      const ui = await connectUi(tc.companion)
      try {
        const result = await w.setup('--hooks')
        expect(result.code).toBe(0)
        const file = join(w.home, '.config', 'opencode', 'plugin', 'ask-user.js')
        expect(result.stdout).toContain(`${file}: wrote the ask-user plugin\n`)
        const replies: unknown[] = []
        const client = {
          permission: { reply: async (body: unknown) => void replies.push(body) },
          question: { reply: async (body: unknown) => void replies.push(body) },
        }
        const plugin = (await import(pathToFileURL(file).href)) as {
          AskUserCompanion: (input: unknown) => Promise<{ event: (e: unknown) => Promise<void> }>
        }
        const hooks = await plugin.AskUserCompanion({ client, directory: w.project })
        const event = {
          type: 'question.asked',
          properties: {
            id: 'que_1',
            sessionID: 'ses_1',
            questions: [
              {
                question: 'Which?',
                header: 'Pick',
                options: [
                  { label: 'A', description: 'a' },
                  { label: 'B', description: 'b' },
                ],
              },
            ],
          },
        }
        const handled = hooks.event({ event })
        const ask = await ui.nextAsk(undefined, 15_000)
        expect(ask.agent).toMatchObject({ name: 'opencode', cwd: w.project })
        await ui.answer(ask.askId, [{ id: 'q1', selected: ['B'] }])
        await handled
        expect(replies).toEqual([{ requestID: 'que_1', answers: [['B']] }])
        expect((await w.setup('--remove', '--hooks')).stdout).toContain(`${file}: removed the ask-user plugin\n`)
      } finally {
        await ui.close()
        await tc.cleanup()
        await rm(w.home, { recursive: true, force: true })
        await rm(w.project, { recursive: true, force: true })
      }
    },
  )
})
