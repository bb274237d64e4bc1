// Who `ask-user mcp` says is asking when its MCP client is a harness whose hooks also reach the
// companion: the same agent as those hooks, so one session is one group in the inbox (shared/agent-key.ts).
import { claudeCode } from '../../integrations/claude-code'
import { hookAgent } from '../../integrations/hook-kit'
import type { ClientInfo } from '../../shared/wire'

/** Claude Code's MCP `clientInfo.name` (2.1.x, both protocol eras). */
const CLAUDE_CODE_CLIENT = 'claude-code'
/** Set by Claude Code on every stdio MCP server it starts: the id of the session that started it. */
export const CLAUDE_SESSION_ENV = 'CLAUDE_CODE_SESSION_ID'
/** Put by Claude Code (2.1.332, behind one of its feature flags) in a `tools/call`'s `_meta`: that call's session. */
export const CLAUDE_SESSION_META = 'claudecode/sessionId'

/** What the MCP peer says of itself: its `clientInfo` name and version. */
export interface McpPeer {
  name: string
  version?: string
}

/**
 * How the server introduces itself to the companion for `peer`. For Claude Code with a known session
 * (the call's `_meta` first, else the environment Claude started the server with) it is what Claude's
 * hooks send: name "Claude Code", title "session <first 8>", and the session id, so the model's
 * ask_user_question and the hooks' approvals of one session are one agent. Any other peer, or Claude
 * Code without a session, is named as it names itself. Self-declared, like every agent identity.
 */
export function mcpClientInfo(
  peer: McpPeer,
  env: NodeJS.ProcessEnv,
  meta: Record<string, unknown> | undefined,
): Pick<ClientInfo, 'name' | 'version' | 'title' | 'session'> {
  const own = { name: peer.name, ...(peer.version ? { version: peer.version } : {}) }
  if (peer.name !== CLAUDE_CODE_CLIENT) return own
  const fromCall = meta?.[CLAUDE_SESSION_META]
  const session = typeof fromCall === 'string' && fromCall !== '' ? fromCall : env[CLAUDE_SESSION_ENV] || undefined
  if (session === undefined) return own
  const { name, title, session: id } = hookAgent(claudeCode.name, undefined, session)
  return { ...own, name, ...(title !== undefined ? { title } : {}), ...(id !== undefined ? { session: id } : {}) }
}
