// GitHub Copilot CLI: MCP set-up through `copilot mcp add` (user level, ~/.copilot/mcp-config.json,
// a day of timeout). No askpass setting.
import type { Harness } from './harness'
import { mcpLaunch, SERVER_NAME, TOOL_NAME, TOOL_TIMEOUT_SECONDS, type SetupPlan } from './setup-steps'

const NAME = 'GitHub Copilot CLI'

/** GitHub Copilot CLI, as `ask-user setup` and the Connect panel know it. */
export const copilot = {
  id: 'copilot',
  name: NAME,
  connectNote: 'noteCopilot',
  published: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  mcp: (info): SetupPlan => {
    const { argv, command, args, env, envPairs } = mcpLaunch(info)
    const timeoutMs = TOOL_TIMEOUT_SECONDS * 1000
    return {
      steps: [
        {
          kind: 'run',
          // Copilot's own default cuts a tool call long before a person answers: a day, in milliseconds.
          argv: ['copilot', 'mcp', 'add', '--timeout', String(timeoutMs), ...envPairs('--env'), SERVER_NAME, '--', ...argv],
          remove: ['copilot', 'mcp', 'remove', SERVER_NAME],
          entry: { file: '~/.copilot/mcp-config.json', path: ['mcpServers', SERVER_NAME], value: { type: 'local', command, args, env, timeout: timeoutMs } },
        },
      ],
      notes: [`Copilot CLI keeps no user-level allow rule for one MCP tool: start it with --allow-tool='${SERVER_NAME}(${TOOL_NAME})' to let it ask without a prompt.`],
    }
  },
} as const satisfies Harness
