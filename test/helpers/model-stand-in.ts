// Test helper: a scripted stand-in for a harness's model API on 127.0.0.1, so that a harness's real
// agent loop makes one tool call without a model or a login. Each turn that does not carry a tool
// result calls the tool; a turn that carries one ends with the text "done". Two wire formats: the
// Gemini API (`…:streamGenerateContent?alt=sse`, for Gemini CLI) and OpenAI-style chat completions
// (`/v1/chat/completions`, for Qwen Code and Copilot CLI's bring-your-own-model mode).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The wire format the stand-in speaks. */
export type ModelApi = 'gemini' | 'chat-completions'

/** A running stand-in. */
export interface ModelStandIn {
  /** The base URL to give the harness: `http://127.0.0.1:<port>` (Gemini) or `…/v1` (chat completions). */
  url: string
  /** The arguments of the next tool call; set it between sessions to change what the model asks. */
  input: object
  /** Every tool result the harness sent back, as text (Gemini's `functionResponse.response` as JSON). */
  toolResults: string[]
  /** Resolves with the first tool result. */
  firstToolResult: Promise<string>
  /** The tool names offered in each model request that offered any. */
  offered: string[][]
  close(): Promise<void>
}

/**
 * Starts a stand-in that calls `tool` with {@link ModelStandIn.input}. The harness may offer the tool
 * under a longer name (an MCP tool as `ask-user_ask_user_question` or `mcp__ask-user__…`): the
 * offered name that ends with `tool` is the one called, else `tool` itself.
 */
export async function startModelStandIn(api: ModelApi, tool: string, input: object = {}): Promise<ModelStandIn> {
  let deliver: (text: string) => void = () => {}
  const firstToolResult = new Promise<string>((resolve) => (deliver = resolve))
  const state: Omit<ModelStandIn, 'url' | 'close'> = { input, toolResults: [], firstToolResult, offered: [] }
  const record = (names: string[], result: string | undefined): string => {
    if (names.length > 0) state.offered.push(names)
    if (result !== undefined) {
      state.toolResults.push(result)
      deliver(result)
    }
    return names.find((name) => name === tool) ?? names.find((name) => name.endsWith(tool)) ?? tool
  }
  const answer = api === 'gemini' ? geminiTurn : chatCompletionsTurn
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (part: Buffer) => (body += part.toString()))
    req.on('end', () => answer(req, res, body ? (JSON.parse(body) as unknown) : {}, record, () => state.input))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}${api === 'gemini' ? '' : '/v1'}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

/** Notes one request (the names it offers, the tool result it carries) and returns the name to call. */
type NoteTurn = (offered: string[], toolResult: string | undefined) => string

function geminiTurn(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  record: NoteTurn,
  input: () => object,
): void {
  type Part = { functionResponse?: { response?: unknown } }
  const request = body as {
    contents?: { parts?: Part[] }[]
    tools?: { functionDeclarations?: { name: string }[] }[]
    generationConfig?: { responseMimeType?: string }
  }
  const names = (request.tools ?? []).flatMap((entry) => (entry.functionDeclarations ?? []).map((f) => f.name))
  const answered = request.contents?.at(-1)?.parts?.find((part) => part.functionResponse)
  const name = record(names, answered ? JSON.stringify(answered.functionResponse?.response) : undefined)
  // A request for JSON is Gemini CLI's model router (or another side question): give it a routing answer.
  const part =
    request.generationConfig?.responseMimeType === 'application/json'
      ? { text: JSON.stringify({ complexity_reasoning: 'stand-in', complexity_score: 1 }) }
      : answered
        ? { text: 'done' }
        : { functionCall: { name, args: input() } }
  const payload = JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  })
  if (req.url?.includes('alt=sse'))
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${payload}\n\n`)
  else res.writeHead(200, { 'content-type': 'application/json' }).end(payload)
}

function chatCompletionsTurn(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  record: NoteTurn,
  input: () => object,
): void {
  if (!req.url?.endsWith('/chat/completions')) {
    // The model list some harnesses read first.
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ data: [{ id: 'gpt-4.1', object: 'model' }] }))
    return
  }
  const request = body as {
    messages: { role: string; content?: unknown }[]
    tools?: { function?: { name: string } }[]
  }
  const names = (request.tools ?? []).flatMap((entry) => (entry.function ? [entry.function.name] : []))
  const last = request.messages.at(-1)
  const content = last?.content
  const result =
    last?.role === 'tool'
      ? Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : String(content)
      : undefined
  const name = record(names, result)
  const chunk = (delta: object, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  if (result !== undefined) {
    res.end(`${chunk({ role: 'assistant', content: 'done' })}${chunk({}, 'stop')}data: [DONE]\n\n`)
    return
  }
  const call = { index: 0, id: 'call_1', type: 'function', function: { name, arguments: JSON.stringify(input()) } }
  res.end(
    `${chunk({ role: 'assistant', content: null, tool_calls: [call] })}${chunk({}, 'tool_calls')}data: [DONE]\n\n`,
  )
}
