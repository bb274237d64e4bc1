// `ask-user mcp` under Gemini CLI and Qwen Code, the real binaries at the versions their records pin,
// each pointed at a stand-in model (test/helpers/model-stand-in.ts) that calls `ask_user_question` once
// and then finishes. The client's per-call `timeout` is set down to a few seconds and `ask-user mcp`
// sends progress every second; the person answers only after twice that timeout. What comes back is
// what each client really does with a question that outlives its limit (docs/integrations.md's table).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { HARNESS_BY_ID } from '../../../../integrations'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { startModelStandIn, type ModelStandIn } from '../../../helpers/model-stand-in'
import { installPublished, type Installed } from '../../../helpers/published-client'
import { runProcess, type ProcessResult } from '../../../helpers/run-process'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { BIN, ensureBuilt } from '../built-cli'
import { ANSWER_AFTER_MS, answerText, CLIENT_TIMEOUT_S, outlive, question } from './long-wait'

const TOOL = 'ask_user_question'

/** One session's world: a fresh HOME and project, a companion with a window, a stand-in model. */
interface World {
  home: string
  project: string
  tc: TestCompanion
  ui: UiClient
  api: ModelStandIn
}

async function openWorld(name: string, api: 'gemini' | 'chat-completions'): Promise<World> {
  const home = await mkdtemp(join(tmpdir(), `ask-user-${name}-timeout-home-`))
  const project = await mkdtemp(join(tmpdir(), `ask-user-${name}-timeout-project-`))
  const tc = await startTestCompanion()
  const ui = await connectUi(tc.companion)
  return { home, project, tc, ui, api: await startModelStandIn(api, TOOL, { questions: [question] }) }
}

async function closeWorld(w: World | undefined): Promise<void> {
  if (!w) return
  await w.api.close()
  await w.ui.close()
  await w.tc.cleanup()
  await rm(w.home, { recursive: true, force: true })
  await rm(w.project, { recursive: true, force: true })
}

/** The `mcpServers.ask-user` entry as `setup` writes it, with `timeoutMs` and progress every second. */
function serverEntry(w: World, timeoutMs: number): object {
  return {
    command: process.execPath,
    args: [BIN, 'mcp', '--progress-interval', '1'],
    env: { ASK_USER_HOME: w.tc.home },
    timeout: timeoutMs,
    trust: true,
  }
}

async function writeSettings(file: string, settings: object): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify(settings))
}

/**
 * The person answers "pnpm" only after {@link ANSWER_AFTER_MS} (or as soon as the session has ended,
 * if the client gave up first). Resolves with how the companion settled the question: `answered`, or
 * `aborted` when the client withdrew it first.
 */
async function answerLate(w: World, run: Promise<ProcessResult>): Promise<string> {
  const ask = await w.ui.nextAsk(undefined, 90_000)
  expect(ask.questions).toEqual([question])
  const settled = w.ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === ask.askId, 90_000)
  await outlive(run, ANSWER_AFTER_MS).catch(() => undefined)
  await w.ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
  return ((await settled) as { outcome: string }).outcome
}

const geminiPublished = HARNESS_BY_ID.gemini.published
const gemini: Installed = await installPublished(geminiPublished)

describe.skipIf(!gemini.ok)(
  `gemini ${geminiPublished.version} -p, MCP timeout ${CLIENT_TIMEOUT_S} s${gemini.ok ? '' : ` (skipped: ${gemini.reason})`}`,
  { timeout: 150_000 },
  () => {
    let w: World
    beforeAll(() => ensureBuilt(), 120_000)
    beforeEach(async () => {
      w = await openWorld('gemini', 'gemini')
    })
    afterEach(() => closeWorld(w))

    // `-m` pins the model; the stand-in answers the model router's JSON request too. An API key (any)
    // and GOOGLE_GEMINI_BASE_URL reach the stand-in; the folder is trusted for this one session.
    const session = (): Promise<ProcessResult> => {
      if (!gemini.ok) throw new Error(gemini.reason)
      const prompt = 'Ask me which package manager to use.'
      return runProcess(gemini.command, ['-p', prompt, '-m', 'gemini-2.5-pro'], w.project, {
        HOME: w.home,
        PATH: `${gemini.binDir}:/usr/bin:/bin`,
        LANG: 'C.UTF-8',
        GEMINI_API_KEY: 'stand-in',
        GOOGLE_GEMINI_BASE_URL: w.api.url,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      })
    }
    const settings = (timeoutMs: number): Promise<void> =>
      writeSettings(join(w.home, '.gemini', 'settings.json'), {
        security: { auth: { selectedType: 'gemini-api-key' } },
        mcpServers: { 'ask-user': serverEntry(w, timeoutMs) },
      })

    it('the entry’s timeout is a hard limit: progress every second does not extend it, the model gets a timeout error and the question is withdrawn', async () => {
      await settings(CLIENT_TIMEOUT_S * 1000)
      const run = session()
      expect(await answerLate(w, run)).toBe('aborted')
      expect((await run).code).toBe(0)
      expect(w.api.offered[0]).toContain('mcp_ask-user_ask_user_question')
      expect(w.api.toolResults).toHaveLength(1)
      expect(w.api.toolResults[0]).toContain('MCP error -32001: Request timed out')
    })

    it('within the limit the model gets the person’s answer', async () => {
      await settings(60_000)
      const run = session()
      expect(await answerLate(w, run)).toBe('answered')
      expect((await run).code).toBe(0)
      expect(w.api.toolResults).toHaveLength(1)
      // Gemini hands an MCP tool's text to its model marked as untrusted context.
      expect(JSON.parse(w.api.toolResults[0]!)).toEqual({
        output: `<untrusted_context>\n${answerText}\n</untrusted_context>`,
      })
    })
  },
)

const qwenPublished = HARNESS_BY_ID.qwen.published
const qwen: Installed = await installPublished(qwenPublished)

describe.skipIf(!qwen.ok)(
  `qwen ${qwenPublished.version} -p, MCP timeout ${CLIENT_TIMEOUT_S} s${qwen.ok ? '' : ` (skipped: ${qwen.reason})`}`,
  { timeout: 150_000 },
  () => {
    let w: World
    beforeAll(() => ensureBuilt(), 120_000)
    beforeEach(async () => {
      w = await openWorld('qwen', 'chat-completions')
    })
    afterEach(() => closeWorld(w))

    // An OpenAI-style model; a trusted MCP server's tool runs under -p without a confirmation.
    const session = (env: Record<string, string> = {}): Promise<ProcessResult> => {
      if (!qwen.ok) throw new Error(qwen.reason)
      const prompt = 'Ask me which package manager to use.'
      return runProcess(qwen.command, ['--auth-type', 'openai', '-p', prompt], w.project, {
        HOME: w.home,
        PATH: `${qwen.binDir}:/usr/bin:/bin`,
        LANG: 'C.UTF-8',
        OPENAI_API_KEY: 'stand-in',
        OPENAI_BASE_URL: w.api.url,
        OPENAI_MODEL: 'gpt-4.1',
        ...env,
      })
    }
    // tools.toolSearch off: Qwen 0.24 otherwise hides MCP tools behind its tool_search bridge.
    const settings = (timeoutMs: number, progressSeconds = 1): Promise<void> =>
      writeSettings(join(w.home, '.qwen', 'settings.json'), {
        tools: { toolSearch: { enabled: false } },
        mcpServers: {
          'ask-user': {
            ...serverEntry(w, timeoutMs),
            args: [BIN, 'mcp', '--progress-interval', String(progressSeconds)],
          },
        },
      })

    it('the entry’s timeout is a hard limit: progress every second does not extend it, the model gets a timeout error and the question is withdrawn', async () => {
      await settings(CLIENT_TIMEOUT_S * 1000)
      const run = session()
      expect(await answerLate(w, run)).toBe('aborted')
      expect((await run).code).toBe(0)
      expect(w.api.offered[0]).toContain('mcp__ask-user__ask_user_question')
      expect(w.api.toolResults).toEqual(['Request timed out'])
    })

    it('the idle limit is reset by progress: with it at 3 s, an answer after twice that comes back', async () => {
      await settings(60_000)
      const run = session({ QWEN_CODE_MCP_TOOL_IDLE_TIMEOUT_MS: String(CLIENT_TIMEOUT_S * 1000) })
      expect(await answerLate(w, run)).toBe('answered')
      expect((await run).code).toBe(0)
      expect(w.api.toolResults).toEqual([answerText])
    })

    it('without progress (--progress-interval 0) the same idle limit cuts the call and the question is withdrawn', async () => {
      await settings(60_000, 0)
      const run = session({ QWEN_CODE_MCP_TOOL_IDLE_TIMEOUT_MS: String(CLIENT_TIMEOUT_S * 1000) })
      expect(await answerLate(w, run)).toBe('aborted')
      expect((await run).code).toBe(0)
      expect(w.api.toolResults).toEqual([
        `AbortError: MCP tool 'ask_user_question' on server 'ask-user' did not respond within ${CLIENT_TIMEOUT_S * 1000}ms idle timeout`,
      ])
    })
  },
)
