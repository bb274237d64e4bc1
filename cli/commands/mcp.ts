import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { AskUserClient } from '../../agent/client'
import { createAskUserMcpServer } from '../../agent/mcp-server'
import { version } from '../../package.json'
import type { Command } from '../io'
import { EXIT, refuseArguments } from '../io'

const HELP = `Usage: ask-user mcp

Runs an MCP server on stdio offering the ask_user_question tool, answered through the running Ask
User Companion. Add it to an MCP client, e.g. \`claude mcp add ask-user -- npx ask-user mcp\`.
It runs until stdin closes or it is interrupted.
`

/** `ask-user mcp`: an MCP server on stdin/stdout until stdin ends or the process is interrupted. */
export const run: Command = async (args, io) => {
  const refused = refuseArguments(args, io, 'mcp', HELP)
  if (refused !== undefined) return refused
  const client = new AskUserClient({ env: io.env, cwd: io.cwd, name: 'mcp client', version })
  const server = createAskUserMcpServer({ client, version })
  // The real CLI passes process.stdin/stdout, which are full Node streams.
  const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable)
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve()
    io.stdin.once('end', stop)
    io.stdin.once('close', stop)
    server.onclose = stop
    io.signal.addEventListener('abort', stop, { once: true })
  })
  await server.connect(transport)
  await stopped
  await client.close()
  await server.close()
  return io.signal.aborted ? EXIT.INTERRUPTED : EXIT.OK
}
