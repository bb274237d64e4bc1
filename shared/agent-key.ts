import type { AgentInfo } from './ask'

/**
 * The one definition of "the same agent", for the inbox's groups, the notifications' "from N agents"
 * and the focused-window rule: same name, pid, cwd and title (two sessions of one tool are two agents).
 */
export function agentKey(agent: AgentInfo): string {
  return JSON.stringify([agent.name, agent.pid ?? null, agent.cwd ?? null, agent.title ?? null])
}

/** True when both asks come from the same agent (by {@link agentKey}). */
export function sameAgent(a: AgentInfo | undefined, b: AgentInfo): boolean {
  return a !== undefined && agentKey(a) === agentKey(b)
}
