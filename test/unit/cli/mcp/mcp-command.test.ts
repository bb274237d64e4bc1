import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAskUserQuestionTool } from '../../../../agent/tool-definition'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { ensureBuilt, runCli } from '../built-cli'
import { version } from '../../../../package.json'
import { CLIENT_KINDS, connectClient, type McpTestClient } from './sdk-clients'

let tc: TestCompanion
let ui: UiClient

beforeAll(async () => {
  await ensureBuilt()
  tc = await startTestCompanion()
  ui = await connectUi(tc.companion)
}, 120_000)

afterAll(async () => {
  await ui?.close()
  await tc?.cleanup()
})

const question = { id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }

describe.each(CLIENT_KINDS)('ask-user mcp over stdio, driven by the SDK client %s', (kind) => {
  let client: McpTestClient

  beforeAll(async () => {
    client = await connectClient(kind, tc.home, 'test-mcp-client')
  }, 60_000)

  afterAll(() => client?.close())

  /** A tool result as this client receives it: on 2026-07-28 every result names the server in its `_meta`. */
  const received = (result: { isError: boolean; content: unknown[] }): unknown =>
    kind === 'client-2.x 2026-07-28'
      ? { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ask-user', version } }, ...result }
      : result

  it('negotiates the revision the client asks for', () => {
    expect(client.protocolVersion()).toBe(kind === 'client-2.x 2026-07-28' ? '2026-07-28' : '2025-11-25')
  })

  it('lists ask_user_question with exactly the tool definition', async () => {
    const { tools } = await client.listTools()
    const { name, title, description, inputSchema, annotations } = createAskUserQuestionTool()
    expect(tools).toEqual([{ name, title, description, inputSchema, annotations }])
  })

  it('answers a call with one text block of canonical JSON, naming the MCP client as the agent', async () => {
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } })
    const ask = await ui.nextAsk()
    expect(ask.agent.name).toBe('test-mcp-client')
    expect(ask.questions).toEqual([question])
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
    expect(await call).toEqual(
      received({ isError: false, content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}' }] }),
    )
  })

  it.each([
    [{ questions: [{ question: 'no id' }] }, 'Error: invalid arguments: missing required property "questions[0].id"'],
    [{ questions: 'x' }, 'Error: invalid arguments: "questions" must be an array'],
    [{ questions: [] }, 'Error: ask_user_question needs at least one question; "questions" was empty'],
    [undefined, 'Error: invalid arguments: missing required property "questions"'],
  ])('refuses bad arguments %j as an isError result', async (args, text) => {
    const result = await client.callTool({
      name: 'ask_user_question',
      ...(args === undefined ? {} : { arguments: args }),
    })
    expect(result).toEqual(received({ isError: true, content: [{ type: 'text', text }] }))
  })

  it("drops detail and intent from the model's arguments (the tool boundary)", async () => {
    const call = client.callTool({
      name: 'ask_user_question',
      arguments: {
        questions: [
          { ...question, detail: '![x](https://leak.example/a.png)', intent: { kind: 'plan-review', approve: 'pnpm' } },
        ],
      },
    })
    const ask = await ui.nextAsk()
    expect(ask.questions).toEqual([question])
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['npm'] }])
    expect(await call).toMatchObject({ isError: false })
  })

  it('reports a dismissal as an isError result with the tool text', async () => {
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } })
    await ui.dismiss((await ui.nextAsk()).askId)
    expect(await call).toEqual(
      received({ isError: true, content: [{ type: 'text', text: 'Error: the user cancelled ask_user_question' }] }),
    )
  })

  it('withdraws the ask from the companion when the client cancels the request', async () => {
    const controller = new AbortController()
    const call = client.callTool(
      { name: 'ask_user_question', arguments: { questions: [question] } },
      { signal: controller.signal },
    )
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    )
    const ask = await ui.nextAsk()
    controller.abort()
    expect(await settled).toBe('rejected')
    expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === ask.askId)).toMatchObject({
      outcome: 'aborted',
    })
    expect(tc.companion.pending()).toEqual([])
  })

  it('refuses an unknown tool name', async () => {
    const result = await client.callTool({ name: 'nope', arguments: {} })
    expect(result).toEqual(received({ isError: true, content: [{ type: 'text', text: 'Error: unknown tool "nope"' }] }))
    expect(client.stderr()).toBe('')
  })
})

describe('ask-user mcp --progress-interval', () => {
  it.each(CLIENT_KINDS)(
    'keeps a waiting call alive past the %s client timeout (resetTimeoutOnProgress), then answers',
    async (kind) => {
      const patient = await connectClient(kind, tc.home, 'patient-client', ['--progress-interval', '0.1'])
      try {
        // A 2025 opening is answered before the SDK loads: a first call (to no tool) waits for that load,
        // which on a busy machine alone can take longer than the timeout below.
        await patient.callTool({ name: 'warm-up' })
        let progressed = 0
        let reached: () => void = () => {}
        const enough = new Promise<void>((resolve) => (reached = resolve))
        const call = patient.callTool(
          { name: 'ask_user_question', arguments: { questions: [question] } },
          {
            // Generous for a busy machine (20 ticks of margin): a stall of a second or so, which a loaded
            // machine does cause, must not fail the call; that is not the point tested.
            timeout: 2_000,
            resetTimeoutOnProgress: true,
            onprogress: (p: { message?: string }) => {
              expect(p.message).toMatch(/^the person has not answered yet \(waiting \d+ s\)$/)
              if (++progressed === 45) reached()
            },
          },
        )
        const ask = await ui.nextAsk()
        await enough // 45 × 100 ms: more than twice the client's 2 s timeout
        await ui.answer(ask.askId, [{ id: 'pkg', selected: ['npm'] }])
        expect(await call).toMatchObject({
          isError: false,
          content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["npm"]}]}' }],
        })
      } finally {
        await patient.close()
      }
    },
  )

  it('refuses a bad interval with exit 2', async () => {
    const result = await runCli(['mcp', '--progress-interval', 'soon'], {}).done
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'Error: --progress-interval must be a number of seconds (0 or more), not "soon"\n',
    })
  })
})
