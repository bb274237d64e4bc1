import { CLIENT_INFO_META_KEY, Server, type ServerContext } from '@modelcontextprotocol/server'
import type { AskUserClient } from '../../agent/client'
import { DEFAULT_PROGRESS_INTERVAL_MS, startWaitingProgress } from './progress'
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME, mcpServerCapabilities } from './mcp-identity'
import { TOOL_NAME, createAskUserQuestionTool, runAskUserQuestion } from '../../agent/tool-definition'
import { UNCAPPED_LIMITS } from '../../shared/limits'
import { answerHookTool, HOOK_TOOL_DEFINITION } from './hook-tool'
import { mcpClientInfo } from './harness-session'

/** What the MCP server needs: the companion client it asks through, and its own version. */
export interface McpServerOptions {
  client: Pick<AskUserClient, 'ask' | 'setClientInfo'>
  /** Reported as the server's version (`serverInfo`; default `0.0.0`). */
  version?: string
  /** The server's environment: a harness's session id may be in it (cli/mcp/harness-session.ts). Default none. */
  env?: NodeJS.ProcessEnv
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
 * An MCP server (the SDK's low-level `Server`, so the input schema goes out exactly as the tool
 * definition's) offering `ask_user_question`, for either protocol era: a 2025 connection opened with
 * `initialize`, or a 2026-07-28 connection whose every request carries the client in its `_meta`.
 * A call's arguments are validated once, here where they enter (shape and emptiness; the companion
 * owns the caps), and go to the client as they are. It returns one text block with the canonical JSON;
 * invalid arguments and every failure are `isError: true` results with the tool's `Error: ...` texts.
 * An MCP request cancellation aborts the ask; there is no timeout of its own. While a call with a
 * `progressToken` waits, a progress notification goes out every `progressIntervalMs`, so clients that
 * reset their timeout on progress wait as long as the person takes. The MCP client's name (and
 * version), from `initialize` or from the call's own `_meta` envelope, is what the companion shows as
 * the asking agent; for Claude Code with a known session, the name and session its hooks send
 * (cli/mcp/harness-session.ts), so one session is one agent.
 */
export function createAskUserMcpServer(options: McpServerOptions): Server {
  const { client, claudeCodeHooks: hooks } = options
  const tool = createAskUserQuestionTool()
  const server = new Server(
    { name: MCP_SERVER_NAME, version: options.version ?? '0.0.0' },
    { capabilities: mcpServerCapabilities(), instructions: MCP_INSTRUCTIONS },
  )
  const tellClientInfo = (
    peer: { name?: unknown; version?: unknown } | undefined,
    meta?: Record<string, unknown>,
  ): void => {
    if (typeof peer?.name !== 'string' || peer.name === '') return
    const version = typeof peer.version === 'string' && peer.version ? peer.version : undefined
    client.setClientInfo(mcpClientInfo({ name: peer.name, ...(version ? { version } : {}) }, options.env ?? {}, meta))
  }
  // A 2025 connection names its client once, in `initialize`.
  server.oninitialized = () => tellClientInfo(server.getClientVersion())
  server.setRequestHandler('tools/list', () => ({
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
  server.setRequestHandler('tools/call', async (request, ctx) => {
    tellClientInfo(envelopeClientInfo(ctx) ?? server.getClientVersion(), request.params._meta)
    if (hooks && request.params.name === HOOK_TOOL_DEFINITION.name) {
      const { content, note } = await answerHookTool(
        request.params.arguments,
        request.params._meta,
        hooks.env,
        ctx.mcpReq.signal,
      )
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
            ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...params } }),
          )
    try {
      const result = await runAskUserQuestion(request.params.arguments ?? {}, UNCAPPED_LIMITS, (input) =>
        client.ask(input, { signal: ctx.mcpReq.signal }),
      )
      return { isError: result.isError, content: result.content }
    } finally {
      stopProgress()
    }
  })
  return server
}

/** The client a 2026-07-28 request names in its `_meta` envelope (validated by the SDK); none on a 2025 connection. */
function envelopeClientInfo(ctx: ServerContext): { name?: unknown; version?: unknown } | undefined {
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope
  const info = envelope?.[CLIENT_INFO_META_KEY]
  return info !== null && typeof info === 'object' ? info : undefined
}
