import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { AskUserClient } from '../../agent/client'
import { DEFAULT_PROGRESS_INTERVAL_MS, startWaitingProgress } from './progress'
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME, mcpServerCapabilities } from './mcp-identity'
import { TOOL_NAME, createAskUserQuestionTool, runAskUserQuestion } from '../../agent/tool-definition'
import { UNCAPPED_LIMITS } from '../../shared/limits'
import { answerHookTool, HOOK_TOOL_DEFINITION } from './hook-tool'

/** What the MCP server needs: the companion client it asks through, and its own version. */
export interface McpServerOptions {
  client: Pick<AskUserClient, 'ask' | 'setClientInfo'>
  /** Reported in the MCP `initialize` result (default `0.0.0`). */
  version?: string
  /**
   * Milliseconds between two `notifications/progress` while a call that carries a `progressToken`
   * waits (default {@link DEFAULT_PROGRESS_INTERVAL_MS}); 0 sends none.
   */
  progressIntervalMs?: number
  /**
   * Also serve Claude Code's hook tool (cli/mcp/hook-tool.ts), answered through the companion the
   * environment `env` finds; absent, `ask_user_question` is the only tool.
   */
  claudeCodeHooks?: { env: NodeJS.ProcessEnv; onNote?: (note: string) => void }
}

/**
 * An MCP server (low-level `Server`, so the input schema goes out exactly as the tool definition's)
 * offering `ask_user_question`. A call's arguments are validated once, here where they enter (shape
 * and emptiness; the companion owns the caps), and go to the client as they are: no seam, no
 * camel/snake round trip. It returns one text block with the canonical JSON; invalid arguments and
 * every failure are `isError: true` results with the tool's `Error: ...` texts. An MCP request
 * cancellation aborts the ask; there is no timeout of its own. While a call with a `progressToken` waits,
 * a progress notification goes out every `progressIntervalMs`, so clients that reset their timeout on
 * progress wait as long as the person takes. Once the MCP client has initialized,
 * its name (and version) is what the companion shows as the asking agent.
 */
export function createAskUserMcpServer(options: McpServerOptions): Server {
  const { client, claudeCodeHooks: hooks } = options
  const tool = createAskUserQuestionTool()
  const server = new Server(
    { name: MCP_SERVER_NAME, version: options.version ?? '0.0.0' },
    { capabilities: mcpServerCapabilities(), instructions: MCP_INSTRUCTIONS },
  )
  server.oninitialized = () => {
    const peer = server.getClientVersion()
    if (peer?.name) client.setClientInfo({ name: peer.name, ...(peer.version ? { version: peer.version } : {}) })
  }
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema as { type: 'object' },
        annotations: tool.annotations,
      },
      ...(hooks ? [HOOK_TOOL_DEFINITION] : []),
    ],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (hooks && request.params.name === HOOK_TOOL_DEFINITION.name) {
      const { content, note } = await answerHookTool(request.params.arguments, request.params._meta, hooks.env, extra.signal)
      if (note !== undefined) hooks.onNote?.(note)
      return { content }
    }
    if (request.params.name !== TOOL_NAME) {
      return { isError: true, content: [{ type: 'text', text: `Error: unknown tool "${request.params.name}"` }] }
    }
    const token = request.params._meta?.progressToken
    const stopProgress =
      token === undefined
        ? () => {}
        : startWaitingProgress(token, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, (params) =>
            extra.sendNotification({ method: 'notifications/progress', params }),
          )
    try {
      const result = await runAskUserQuestion(request.params.arguments ?? {}, UNCAPPED_LIMITS, (input) =>
        client.ask(input, { signal: extra.signal }),
      )
      return { isError: result.isError, content: result.content }
    } finally {
      stopProgress()
    }
  })
  return server
}
