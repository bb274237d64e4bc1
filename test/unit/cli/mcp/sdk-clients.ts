// Test helper: `ask-user mcp` (the built CLI) driven by the real MCP SDK clients of both protocol
// revisions, behind one small interface: the 1.x client (`@modelcontextprotocol/sdk`, 2025 era only) and
// the 2.x client (`@modelcontextprotocol/client`) pinned to the 2025 era or to 2026-07-28.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Transport as TransportV1 } from '@modelcontextprotocol/sdk/shared/transport.js'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio'
import { BIN, ROOT } from '../built-cli'

/** The options of one tool call that both SDK generations understand. */
export interface CallOptions {
  signal?: AbortSignal
  timeout?: number
  resetTimeoutOnProgress?: boolean
  onprogress?: (progress: { progress: number; message?: string }) => void
}

/** One connected SDK client, whichever generation. */
export interface McpTestClient {
  listTools(): Promise<{ tools: unknown[] }>
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options?: CallOptions): Promise<unknown>
  /** The protocol version the connection negotiated (`2026-07-28` on a modern one). */
  protocolVersion(): string | undefined
  /** What `ask-user mcp` wrote on stderr so far. */
  stderr(): string
  close(): Promise<void>
}

/** Which client: the 1.x SDK, or the 2.x SDK pinned to an era. */
export type ClientKind = 'sdk-1.x' | 'client-2.x legacy' | 'client-2.x 2026-07-28'

export const CLIENT_KINDS: readonly ClientKind[] = ['sdk-1.x', 'client-2.x legacy', 'client-2.x 2026-07-28']

/** Spawns `ask-user mcp ...args` against the companion home `home` and connects `kind` to it. */
export async function connectClient(
  kind: ClientKind,
  home: string,
  name: string,
  args: string[] = [],
): Promise<McpTestClient> {
  const server = {
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: home },
    stderr: 'pipe' as const,
  }
  let stderr = ''
  if (kind === 'sdk-1.x') {
    const transport = new StdioV1(server)
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // The 1.x client tells its transport the version `initialize` negotiated; its stdio transport keeps none.
    let negotiated: string | undefined
    const told: TransportV1 = transport
    told.setProtocolVersion = (version: string) => void (negotiated = version)
    const client = new ClientV1({ name, version: '1.2.3' })
    await client.connect(transport)
    return {
      listTools: () => client.listTools(),
      callTool: (params, options) => client.callTool(params, undefined, options),
      protocolVersion: () => negotiated,
      stderr: () => stderr,
      close: () => client.close(),
    }
  }
  const transport = new StdioV2(server)
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const mode = kind === 'client-2.x legacy' ? ('legacy' as const) : { pin: '2026-07-28' as const }
  const client = new ClientV2({ name, version: '1.2.3' }, { versionNegotiation: { mode } })
  await client.connect(transport)
  return {
    listTools: () => client.listTools(),
    callTool: (params, options) => client.callTool(params, options),
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    stderr: () => stderr,
    close: () => client.close(),
  }
}
