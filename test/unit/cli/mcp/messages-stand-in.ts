// Test helper: a scripted stand-in for the Anthropic Messages API on 127.0.0.1, so a client's real
// agent loop calls `ask_user_question` without a model: the first streamed turn calls the tool (under
// whatever name the client gave it), the next one ends the turn; the tool result is handed to the test.
import { createServer, type Server } from 'node:http'

/** A running stand-in: its base URL (`http://127.0.0.1:<port>/v1`), the first tool result it received, and `close`. */
export interface MessagesStandIn {
  baseUrl: string
  toolResult: Promise<{ type: 'tool_result'; content: unknown; is_error?: boolean }>
  close(): Promise<void>
}

interface MessagesRequest {
  stream?: boolean
  model?: string
  tools?: { name: string }[]
  messages?: { content?: unknown }[]
}

const sse = (events: [string, object][]): string =>
  events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join('')

/** Starts the stand-in; `input` is the tool call's arguments. */
export async function startMessagesStandIn(input: object): Promise<MessagesStandIn> {
  let delivered: (result: { type: 'tool_result'; content: unknown; is_error?: boolean }) => void = () => {}
  const toolResult = new Promise<{ type: 'tool_result'; content: unknown; is_error?: boolean }>(
    (resolve) => (delivered = resolve),
  )
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const parsed = (body ? JSON.parse(body) : {}) as MessagesRequest
      if (!req.url?.includes('/messages') || req.url.includes('count_tokens') || !parsed.stream) {
        // A title or token count: a plain short answer.
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            id: 'msg_x',
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        )
        return
      }
      const tool = parsed.tools?.find((t) => t.name.endsWith('ask_user_question'))
      const last = parsed.messages?.at(-1)?.content
      const result = Array.isArray(last)
        ? (last as { type?: string }[]).find((block) => block?.type === 'tool_result')
        : undefined
      if (result) delivered(result as { type: 'tool_result'; content: unknown })
      const callTool = tool !== undefined && result === undefined
      const message = {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: parsed.model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }
      const block = callTool
        ? { type: 'tool_use', id: 'toolu_1', name: tool.name, input: {} }
        : { type: 'text', text: '' }
      const delta = callTool
        ? { type: 'input_json_delta', partial_json: JSON.stringify(input) }
        : { type: 'text_delta', text: 'done' }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(
        sse([
          ['message_start', { message }],
          ['content_block_start', { index: 0, content_block: block }],
          ['content_block_delta', { index: 0, delta }],
          ['content_block_stop', { index: 0 }],
          [
            'message_delta',
            { delta: { stop_reason: callTool ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 1 } },
          ],
          ['message_stop', {}],
        ]),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    toolResult,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
