// Cursor: MCP only, one entry in ~/.cursor/mcp.json. No hooks ask-user answers, no askpass setting.
import type { Harness } from './harness'
import { mcpLaunch, SERVER_NAME, type SetupPlan } from './setup-steps'

/** Cursor, as `ask-user setup` and the Connect panel know it. */
export const cursor = {
  id: 'cursor',
  name: 'Cursor',
  connectNote: 'noteCursor',
  mcp: (info): SetupPlan => {
    const { command, args, env } = mcpLaunch(info)
    return {
      steps: [
        {
          kind: 'json',
          file: '~/.cursor/mcp.json',
          path: ['mcpServers', SERVER_NAME],
          value: { type: 'stdio', command, args, env },
        },
      ],
      notes: [
        'Cursor has no per-server tool timeout; a question left longer than its limit (reported: 5 minutes) is withdrawn.',
      ],
    }
  },
} as const satisfies Harness
