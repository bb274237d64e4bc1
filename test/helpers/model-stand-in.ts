// Test helper: scripted stand-ins for a harness's model API on 127.0.0.1, so that a harness's real
// agent loop makes tool calls without a model or a login; the one place the tests and the bench speak
// a model's wire format. `startModelStandIn` makes one tool call per session (each turn without a tool
// result calls the tool; a turn with one ends with "done") on the Gemini API
// (`…:streamGenerateContent?alt=sse`, Gemini CLI) or OpenAI-style chat completions
// (`/v1/chat/completions`, Qwen Code, Copilot CLI's bring-your-own-model mode).
// `startMessagesStandIn` plays any script of turns on the Anthropic Messages API (Claude Code, opencode).
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

/** A `tool_result` block the harness sent back to the Messages API. */
export interface MessagesToolResult {
  tool_use_id: string
  content: unknown
  is_error?: boolean
}

/** The model's next move on the Messages API: a tool call, or undefined to end the turn with "done". */
export type MessagesTurn = (
  results: readonly MessagesToolResult[],
  offered: readonly string[],
) => { id: string; name: string; input: object } | undefined

/** A running Anthropic Messages API stand-in. */
export interface MessagesStandIn {
  /** `http://127.0.0.1:<port>` (Claude Code's ANTHROPIC_BASE_URL; add `/v1` for an SDK's baseURL). */
  url: string
  /** Every tool result received, first one per tool_use id, in order. */
  toolResults: MessagesToolResult[]
  /** Resolves with the result of the tool call `id`. */
  resultOf(id: string): Promise<MessagesToolResult>
  /** The tool names offered in each streamed request. */
  offered: string[][]
  /** Resolves once a streamed turn ended without a tool call. */
  ended: Promise<void>
  close(): Promise<void>
}

const messagesSse = (events: [string, object][]): string =>
  events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join('')

/**
 * A stand-in for the Anthropic Messages API (`/v1/messages`, streamed), for Claude Code and opencode:
 * each streamed request is answered with `next(all tool results so far, the offered tool names)`.
 * A request that is not streamed (a title, a token count) gets a short plain answer.
 */
export async function startMessagesStandIn(next: MessagesTurn): Promise<MessagesStandIn> {
  const toolResults: MessagesToolResult[] = []
  const waiting = new Map<string, (result: MessagesToolResult) => void>()
  const arrived = new Map<string, Promise<MessagesToolResult>>()
  const resultOf = (id: string): Promise<MessagesToolResult> => {
    if (!arrived.has(id)) arrived.set(id, new Promise((resolve) => waiting.set(id, resolve)))
    return arrived.get(id)!
  }
  const offered: string[][] = []
  let end: () => void = () => undefined
  const ended = new Promise<void>((resolve) => (end = resolve))
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const parsed = (body ? JSON.parse(body) : {}) as {
        stream?: boolean
        model?: string
        tools?: { name: string }[]
        messages?: { content?: unknown }[]
      }
      if (!req.url?.includes('/messages') || req.url.includes('count_tokens') || !parsed.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            id: 'msg_x',
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 1, output_tokens: 1 },
            input_tokens: 1,
          }),
        )
        return
      }
      const names = (parsed.tools ?? []).map((tool) => tool.name)
      offered.push(names)
      // A harness may append system messages after the user's: tool results are taken from anywhere.
      const sent = (parsed.messages ?? []).flatMap((m) =>
        Array.isArray(m.content)
          ? (m.content as MessagesToolResult[]).filter((b) => (b as { type?: string }).type === 'tool_result')
          : [],
      )
      for (const result of sent) {
        if (toolResults.some((known) => known.tool_use_id === result.tool_use_id)) continue
        toolResults.push(result)
        void resultOf(result.tool_use_id)
        waiting.get(result.tool_use_id)!(result)
      }
      const call = next(sent, names)
      const message = {
        id: `msg_${sent.length}`,
        type: 'message',
        role: 'assistant',
        model: parsed.model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }
      const block = call ? { type: 'tool_use', id: call.id, name: call.name, input: {} } : { type: 'text', text: '' }
      const delta = call
        ? { type: 'input_json_delta', partial_json: JSON.stringify(call.input) }
        : { type: 'text_delta', text: 'done' }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(
        messagesSse([
          ['message_start', { message }],
          ['content_block_start', { index: 0, content_block: block }],
          ['content_block_delta', { index: 0, delta }],
          ['content_block_stop', { index: 0 }],
          ['message_delta', { delta: { stop_reason: call ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 1 } }],
          ['message_stop', {}],
        ]),
      )
      if (!call) end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    toolResults,
    resultOf,
    offered,
    ended,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
