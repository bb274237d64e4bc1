import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAskUserQuestionTool } from '../../../../agent/tool-definition'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { BIN, ROOT, ensureBuilt, runCli } from '../built-cli'

let tc: TestCompanion
let ui: UiClient
let client: Client
let stderr = ''

beforeAll(async () => {
  await ensureBuilt()
  tc = await startTestCompanion()
  ui = await connectUi(tc.companion)
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: tc.home },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  client = new Client({ name: 'test-mcp-client', version: '1.2.3' })
  await client.connect(transport)
}, 120_000)

afterAll(async () => {
  await client?.close()
  await ui?.close()
  await tc?.cleanup()
})

const question = { id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }

describe('ask-user mcp over stdio, driven by the SDK client', () => {
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
    expect(await call).toEqual({ isError: false, content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}' }] })
  })

  it.each([
    [{ questions: [{ question: 'no id' }] }, 'Error: invalid arguments: missing required property "questions[0].id"'],
    [{ questions: 'x' }, 'Error: invalid arguments: "questions" must be an array'],
    [{ questions: [] }, 'Error: ask_user_question needs at least one question; "questions" was empty'],
    [undefined, 'Error: invalid arguments: missing required property "questions"'],
  ])('refuses bad arguments %j as an isError result', async (args, text) => {
    const result = await client.callTool({ name: 'ask_user_question', ...(args === undefined ? {} : { arguments: args }) })
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text }] })
  })

  it('drops detail and intent from the model\'s arguments (the tool boundary)', async () => {
    const call = client.callTool({
      name: 'ask_user_question',
      arguments: { questions: [{ ...question, detail: '![x](https://leak.example/a.png)', intent: { kind: 'plan-review', approve: 'pnpm' } }] },
    })
    const ask = await ui.nextAsk()
    expect(ask.questions).toEqual([question])
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['npm'] }])
    expect(await call).toMatchObject({ isError: false })
  })

  it('reports a dismissal as an isError result with the tool text', async () => {
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } })
    await ui.dismiss((await ui.nextAsk()).askId)
    expect(await call).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: the user cancelled ask_user_question' }] })
  })

  it('withdraws the ask from the companion when the client cancels the request', async () => {
    const controller = new AbortController()
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } }, undefined, {
      signal: controller.signal,
    })
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    )
    const ask = await ui.nextAsk()
    controller.abort()
    expect(await settled).toBe('rejected')
    expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === ask.askId)).toMatchObject({ outcome: 'aborted' })
    expect(tc.companion.pending()).toEqual([])
  })

  it('refuses an unknown tool name', async () => {
    const result = await client.callTool({ name: 'nope', arguments: {} })
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: unknown tool "nope"' }] })
    expect(stderr).toBe('')
  })
})

describe('ask-user mcp --progress-interval', () => {
  it('keeps a waiting call alive past the SDK client timeout (resetTimeoutOnProgress), then answers', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--progress-interval', '0.1'],
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: tc.home },
    })
    const patient = new Client({ name: 'patient-client', version: '1.0.0' })
    await patient.connect(transport)
    try {
      let progressed = 0
      let reached: () => void = () => {}
      const enough = new Promise<void>((resolve) => (reached = resolve))
      const call = patient.callTool({ name: 'ask_user_question', arguments: { questions: [question] } }, undefined, {
        // Generous for a busy machine: one stall of a second would fail the call, not the point tested.
        timeout: 1_000,
        resetTimeoutOnProgress: true,
        onprogress: (p) => {
          expect(p.message).toMatch(/^the person has not answered yet \(waiting \d+ s\)$/)
          if (++progressed === 25) reached()
        },
      })
      const ask = await ui.nextAsk()
      await enough // 25 × 100 ms: more than twice the client's 1 s timeout
      await ui.answer(ask.askId, [{ id: 'pkg', selected: ['npm'] }])
      expect(await call).toEqual({ isError: false, content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["npm"]}]}' }] })
    } finally {
      await patient.close()
    }
  })

  it('refuses a bad interval with exit 2', async () => {
    const result = await runCli(['mcp', '--progress-interval', 'soon'], {}).done
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: 'Error: --progress-interval must be a number of seconds (0 or more), not "soon"\n' })
  })
})
