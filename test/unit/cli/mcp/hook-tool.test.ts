// `ask-user mcp --claude-code-hooks` as Claude Code's `mcp_tool` hooks reach it: the built CLI over
// stdio (the SDK's client), a real companion and a scripted window. Every Claude Code hook fixture,
// its event substituted into the hook's `input` as Claude does, must come back as the exact text
// `ask-user hook claude-code` prints for it; a call carrying the model's `_meta` is marked.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAskUserQuestionTool } from '../../../../agent/tool-definition'
import { ASKED_BY_MODEL, hookToolInput } from '../../../../integrations/claude-code/hook-tool'
import { HOOK_TOOL_FLAG, HOOK_TOOL_NAME } from '../../../../integrations/claude-code/hook-tool-names'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { hookFixtures } from '../hooks/fixtures'
import { BIN, ROOT, ensureBuilt } from '../built-cli'

const fixtures = hookFixtures().filter(
  (f) => f.harness === 'claude-code' && (f.decision !== undefined || f.answers !== undefined),
)

/** The hook's `input` with each `${field}` replaced as Claude does: a string as is, an object as JSON, absent as "". */
function substituted(event: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(hookToolInput()).map(([key, template]) => {
      const value = event[template.slice(2, -1)]
      return [
        key,
        value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value),
      ]
    }),
  )
}

async function connect(tc: TestCompanion, args: string[], onStderr: (text: string) => void): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: tc.home },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString()))
  const client = new Client({ name: 'claude-code', version: '2.1.332' })
  await client.connect(transport)
  return client
}

let tc: TestCompanion
let ui: UiClient
let hooked: Client
let plain: Client
let stderr = ''

beforeAll(async () => {
  await ensureBuilt()
  tc = await startTestCompanion()
  ui = await connectUi(tc.companion)
  hooked = await connect(tc, [HOOK_TOOL_FLAG], (text) => (stderr += text))
  plain = await connect(tc, [], () => undefined)
}, 120_000)

afterAll(async () => {
  await hooked?.close()
  await plain?.close()
  await ui?.close()
  await tc?.cleanup()
})

describe(`ask-user mcp ${HOOK_TOOL_FLAG}`, () => {
  it(`lists ${HOOK_TOOL_NAME} after ask_user_question; without the flag ask_user_question stays the only tool`, async () => {
    const { name } = createAskUserQuestionTool()
    expect((await hooked.listTools()).tools.map((tool) => tool.name)).toEqual([name, HOOK_TOOL_NAME])
    expect((await plain.listTools()).tools.map((tool) => tool.name)).toEqual([name])
    const refused = await plain.callTool({ name: HOOK_TOOL_NAME, arguments: {} })
    expect(refused).toEqual({
      isError: true,
      content: [{ type: 'text', text: `Error: unknown tool "${HOOK_TOOL_NAME}"` }],
    })
  })

  for (const f of fixtures) {
    it(`${f.name}: a hook's call answers with exactly what ask-user hook claude-code prints`, async () => {
      const call = hooked.callTool({ name: HOOK_TOOL_NAME, arguments: substituted(f.event as Record<string, unknown>) })
      const ask = await ui.nextAsk(undefined, 15_000)
      expect(ask.agent).toMatchObject({ name: 'Claude Code', title: expect.stringMatching(/^session /) })
      if (f.decision !== undefined) {
        if (f.expect) expect(ask.approval).toEqual(f.expect)
        expect(await ui.decide(ask.askId, f.decision)).toMatchObject({ type: 'accepted' })
      } else {
        expect(ask.questions).toEqual(f.questions)
        expect(await ui.answer(ask.askId, f.answers!)).toMatchObject({ type: 'accepted' })
      }
      expect(await call).toEqual({ content: [{ type: 'text', text: f.stdout.replace(/\n$/, '') }] })
    })
  }

  it('a call with the model’s _meta is marked "asked by the model", its approval warned', async () => {
    const f = fixtures.find((x) => x.decision !== undefined)!
    const call = hooked.callTool({
      name: HOOK_TOOL_NAME,
      arguments: substituted(f.event as Record<string, unknown>),
      _meta: { 'claudecode/toolUseId': 'toolu_9' },
    })
    const ask = await ui.nextAsk(undefined, 15_000)
    expect(ask.agent).toMatchObject({ name: 'Claude Code', title: ASKED_BY_MODEL })
    expect(ask.approval?.warnings).toContainEqual(expect.objectContaining({ code: 'ASKED_BY_MODEL' }))
    await ui.decide(ask.askId, { behavior: 'deny' })
    expect(await call).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('"behavior":"deny"') }],
    })
  })

  it('Claude’s cancellation (its own dialog answered, or its hook timeout) withdraws the card', async () => {
    const f = fixtures.find((x) => x.decision !== undefined)!
    const controller = new AbortController()
    const call = hooked.callTool(
      { name: HOOK_TOOL_NAME, arguments: substituted(f.event as Record<string, unknown>) },
      undefined,
      { signal: controller.signal },
    )
    const ask = await ui.nextAsk(undefined, 15_000)
    controller.abort()
    await expect(call).rejects.toThrow()
    const resolved = await ui.nextFrame(
      (frame) => frame.type === 'question/resolved' && frame.askId === ask.askId,
      15_000,
    )
    expect(resolved).toMatchObject({ outcome: expect.stringMatching(/^(aborted|agent-gone)$/) })
  })

  it('an event of the wrong shape answers nothing (Claude asks by itself) and says why on stderr', async () => {
    stderr = ''
    const result = await hooked.callTool({
      name: HOOK_TOOL_NAME,
      arguments: { hook_event_name: 'PermissionRequest', tool_input: '{not json' },
    })
    expect(result).toEqual({ content: [{ type: 'text', text: '' }] })
    // stderr is a second pipe: the note may land after the reply.
    await vi.waitFor(() => expect(stderr).toMatch(new RegExp(`^ask-user mcp: ${HOOK_TOOL_NAME}: .*JSON.*$`, 'm')), {
      timeout: 10_000,
    })
  })
})
