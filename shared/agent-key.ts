import type { AgentInfo } from './ask'

/**
 * The one definition of "the same agent", for the inbox's groups, the notices' per-agent cap, the
 * notifications' "from N agents" and the focused-window rule: the same name and the same session, or,
 * when the agent names no session, the same name and working folder. Not the pid: every `ask-user ask`
 * and every hook call is a process of its own, yet one session of one harness is one agent. Not the
 * title either: it is a label, and a harness may word it differently from call to call.
 * Self-declared: any agent may claim any name and session, so a key groups, it never proves.
 */
export function agentKey(agent: AgentInfo): string {
  const where = agent.session ? ['session', agent.session] : ['cwd', agent.cwd ?? null]
  return JSON.stringify([agent.name, ...where])
}

/** True when both asks come from the same agent (by {@link agentKey}). */
export function sameAgent(a: AgentInfo | undefined, b: AgentInfo): boolean {
  return a !== undefined && agentKey(a) === agentKey(b)
}
