// `ask-user mcp` under each client's current release, with the client's own per-call timeout set down
// to a few seconds and `--progress-interval 1`: a question the person answers only after that timeout
// must still come back with the answer. Only clients that can make a tool call without a model (or
// with a stand-in for one) are driven here; docs/integrations.md says where a client cannot be.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HARNESS_BY_ID } from '../../../../integrations'
import { startCodexAppServer, type CodexAppServer } from '../../../helpers/codex-app-server'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { startMessagesStandIn, type MessagesStandIn } from '../../../helpers/model-stand-in'
import { installPublished, type Installed } from '../../../helpers/published-client'
import { runProcess, type ProcessResult } from '../../../helpers/run-process'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { WAIT_MS } from '../../../helpers/waits'
import { BIN, ensureBuilt } from '../built-cli'
import { ANSWER_AFTER_MS, answerText, CLIENT_TIMEOUT_S, outlive, question } from './long-wait'

const codexPublished = HARNESS_BY_ID.codex.published!
const codex: Installed = await installPublished(codexPublished)

describe.skipIf(!codex.ok)(
  `codex ${codexPublished.version} app-server, tool_timeout_sec = ${CLIENT_TIMEOUT_S}${codex.ok ? '' : ` (skipped: ${codex.reason})`}`,
  { timeout: 90_000 },
  () => {
    let home: string
    let project: string
    let tc: TestCompanion
    let ui: UiClient
    let server: CodexAppServer

    beforeAll(async () => {
      if (!codex.ok) return
      await ensureBuilt()
      home = await mkdtemp(join(tmpdir(), 'ask-user-codex-timeout-home-'))
      project = await mkdtemp(join(tmpdir(), 'ask-user-codex-timeout-project-'))
      tc = await startTestCompanion()
      ui = await connectUi(tc.companion)
      await mkdir(join(home, '.codex'), { recursive: true })
      const config = [
        '[mcp_servers.ask-user]',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = ${JSON.stringify([BIN, 'mcp', '--progress-interval', '1'])}`,
        `tool_timeout_sec = ${CLIENT_TIMEOUT_S}`,
        '[mcp_servers.ask-user.env]',
        `ASK_USER_HOME = ${JSON.stringify(tc.home)}`,
        '',
      ].join('\n')
      await writeFile(join(home, '.codex', 'config.toml'), config)
      server = await startCodexAppServer(codex.command, { HOME: home, PATH: `/usr/bin:/bin`, LANG: 'C.UTF-8' }, project)
    }, 120_000)

    afterAll(async () => {
      server?.close()
      await ui?.close()
      await tc?.cleanup()
      if (home) await rm(home, { recursive: true, force: true })
      if (project) await rm(project, { recursive: true, force: true })
    })

    it('tool_timeout_sec is a hard limit: progress every second does not extend it, and the ask is withdrawn', async () => {
      // The thread starts its MCP servers in the background: poll its status until the tool is there.
      const deadline = Date.now() + 30_000
      let listed = false
      while (Date.now() < deadline && !listed) {
        const status = (await server.request('mcpServerStatus/list', {})) as {
          data: { name: string; tools: Record<string, unknown> }[]
        }
        listed = status.data.some((entry) => entry.name === 'ask-user' && 'ask_user_question' in entry.tools)
      }
      expect(listed).toBe(true)
      const call = server.request(
        'mcpServer/tool/call',
        {
          server: 'ask-user',
          threadId: server.threadId,
          tool: 'ask_user_question',
          arguments: { questions: [question] },
        },
        60_000,
      )
      const settled = call.then(
        () => 'answered',
        (error: Error) => error.message,
      )
      expect(await settled).toBe(
        `tool call failed for \`ask-user/ask_user_question\`: timed out awaiting tools/call after ${CLIENT_TIMEOUT_S}s`,
      )
      // Codex cancels the request; the companion takes the question back rather than leave it unanswerable.
      // (On a busy machine the 3 s may pass before the ask reaches the companion: then nothing is pending.)
      await expect.poll(() => tc.companion.pending(), { timeout: WAIT_MS }).toEqual([])
      const shown = ui.frames.find((f) => f.type === 'question/added')
      if (shown?.type === 'question/added')
        expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === shown.ask.askId)).toMatchObject({
          outcome: 'aborted',
        })
    })
  },
)

const opencodePublished = HARNESS_BY_ID.opencode.published!
const opencode: Installed = await installPublished(opencodePublished)

describe.skipIf(!opencode.ok)(
  `opencode ${opencodePublished.version} run, MCP timeout ${CLIENT_TIMEOUT_S} s${opencode.ok ? '' : ` (skipped: ${opencode.reason})`}`,
  { timeout: 120_000 },
  () => {
    let home: string
    let project: string
    let tc: TestCompanion
    let ui: UiClient
    let api: MessagesStandIn

    beforeAll(async () => {
      if (!opencode.ok) return
      await ensureBuilt()
      home = await mkdtemp(join(tmpdir(), 'ask-user-opencode-timeout-home-'))
      project = await mkdtemp(join(tmpdir(), 'ask-user-opencode-timeout-project-'))
      tc = await startTestCompanion()
      ui = await connectUi(tc.companion)
      // The model calls ask_user_question (under opencode's name for it) once, then ends its turn.
      api = await startMessagesStandIn((results, offered) => {
        const name = offered.find((tool) => tool.endsWith('ask_user_question'))
        return results.length === 0 && name !== undefined
          ? { id: 'toolu_1', name, input: { questions: [question] } }
          : undefined
      })
      await mkdir(join(home, '.config', 'opencode'), { recursive: true })
      const config = {
        model: 'anthropic/claude-sonnet-4-5',
        provider: { anthropic: { options: { baseURL: `${api.url}/v1`, apiKey: 'stand-in' } } },
        mcp: {
          'ask-user': {
            type: 'local',
            command: [process.execPath, BIN, 'mcp', '--progress-interval', '1'],
            environment: { ASK_USER_HOME: tc.home },
            enabled: true,
            timeout: CLIENT_TIMEOUT_S * 1000,
          },
        },
      }
      await writeFile(join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify(config))
    }, 120_000)

    afterAll(async () => {
      await api?.close()
      await ui?.close()
      await tc?.cleanup()
      if (home) await rm(home, { recursive: true, force: true })
      if (project) await rm(project, { recursive: true, force: true })
    })

    it('progress every second extends the timeout: a question answered after twice the timeout comes back with the answer', async () => {
      if (!opencode.ok) throw new Error(opencode.reason)
      const env = {
        HOME: home,
        PATH: `${opencode.binDir}:/usr/bin:/bin`,
        LANG: 'C.UTF-8',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
      }
      const run: Promise<ProcessResult> = runProcess(
        opencode.command,
        ['run', 'Ask me which package manager to use.'],
        project,
        env,
      )
      const ask = await ui.nextAsk(undefined, 60_000)
      expect(ask.questions).toEqual([question])
      await outlive(run, ANSWER_AFTER_MS)
      await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
      const result = await api.resultOf('toolu_1')
      expect(result).toMatchObject({ type: 'tool_result', content: answerText })
      expect(result.is_error).not.toBe(true)
      expect((await run).code).toBe(0)
    })
  },
)
