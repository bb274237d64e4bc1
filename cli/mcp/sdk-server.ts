// The MCP server proper (the SDK's, cli/mcp/mcp-server.ts) on the streams the handover gives it. This
// module is what loads zod and the MCP SDK; `ask-user mcp` imports it once the early replies are out.
import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { AskUserClient } from '../../agent/client'
import { createAskUserMcpServer } from './mcp-server'
import { HOOK_TOOL_NAME } from '../../integrations/claude-code/hook-tool-names'
import { version } from '../../package.json'
import type { CliIo } from '../io'
import { EXIT } from '../io'

/** Serves MCP on `input`/`output` (with Claude Code's hook tool when `claudeCodeHooks`) until `input` ends, the server closes or `io.signal` aborts; returns the exit code. */
export async function serveMcp(io: CliIo, input: Readable, output: Writable, progressIntervalMs: number, claudeCodeHooks = false): Promise<number> {
  const client = new AskUserClient({ env: io.env, cwd: io.cwd, name: 'mcp client', version })
  const hooks = claudeCodeHooks ? { env: io.env, onNote: (note: string) => io.stderr.write(`ask-user mcp: ${HOOK_TOOL_NAME}: ${note}\n`) } : undefined
  const server = createAskUserMcpServer({ client, version, progressIntervalMs, ...(hooks ? { claudeCodeHooks: hooks } : {}) })
  const transport = new StdioServerTransport(input, output)
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve()
    input.once('end', stop)
    input.once('close', stop)
    server.onclose = stop
    io.signal.addEventListener('abort', stop, { once: true })
    // Interrupted while the SDK was loading.
    if (io.signal.aborted) stop()
  })
  await server.connect(transport)
  await stopped
  await client.close()
  await server.close()
  return io.signal.aborted ? EXIT.INTERRUPTED : EXIT.OK
}
