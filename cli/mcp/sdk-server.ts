// The MCP server proper (cli/mcp/mcp-server.ts) on stdio. This module is what loads zod and the MCP
// SDK; `ask-user mcp` imports it once the early replies are out (cli/commands/mcp.ts).
import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio'
import { AskUserClient } from '../../agent/client'
import { createAskUserMcpServer } from './mcp-server'
import { HOOK_TOOL_NAME } from '../../integrations/claude-code/hook-tool-names'
import { version } from '../../package.json'
import type { CliIo } from '../io'
import { EXIT } from '../io'

/**
 * Serves MCP on `input`/`output` (with Claude Code's hook tool when `claudeCodeHooks`) until `input`
 * ends or `io.signal` aborts; returns the exit code. The SDK's stdio entry picks the protocol era from
 * the client's first message (`initialize`: 2025; a request with the 2026-07-28 `_meta` envelope:
 * 2026-07-28), per connection.
 */
export async function serveMcp(
  io: CliIo,
  input: Readable,
  output: Writable,
  progressIntervalMs: number,
  claudeCodeHooks = false,
): Promise<number> {
  const client = new AskUserClient({ env: io.env, cwd: io.cwd, name: 'mcp client', version })
  const hooks = claudeCodeHooks
    ? {
        env: io.env,
        onNote: (note: string) =>
          io.stderr.write(`ask-user mcp: ${HOOK_TOOL_NAME}: ${note}
`),
      }
    : undefined
  const transport = new StdioServerTransport(input, output)
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve()
    input.once('end', stop)
    input.once('close', stop)
    io.signal.addEventListener('abort', stop, { once: true })
    // Interrupted while the SDK was loading.
    if (io.signal.aborted) stop()
  })
  const connection = serveStdio(
    () =>
      createAskUserMcpServer({
        client,
        version,
        env: io.env,
        progressIntervalMs,
        ...(hooks ? { claudeCodeHooks: hooks } : {}),
      }),
    { transport },
  )
  await stopped
  await client.close()
  await connection.close()
  return io.signal.aborted ? EXIT.INTERRUPTED : EXIT.OK
}
