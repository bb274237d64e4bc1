import { agentKey } from '../../../shared/agent-key'
import type { AgentInfo, Ask, HistoryEntry } from '../../../shared/ask'
import { approvalSummary } from '../../../shared/approval'

export { agentKey } from '../../../shared/agent-key'

/** Each agent object's key, worked out once (the list is grouped again whenever asks come or go). */
const keys = new WeakMap<AgentInfo, string>()
function keyOf(agent: AgentInfo): string {
  let key = keys.get(agent)
  if (key === undefined) keys.set(agent, (key = agentKey(agent)))
  return key
}

/** The asks of one agent, as the inbox lists them. */
export interface AgentGroup {
  key: string
  agent: AgentInfo
  /** Oldest first: the order the agent asked in. */
  asks: Ask[]
  /** `receivedAt` of the agent's newest ask (the group's activity). */
  latest: number
}

/**
 * Groups asks by agent, newest agent activity first; asks inside a group oldest first.
 * O(n log n); `asks` is not modified.
 */
export function groupByAgent(asks: readonly Ask[]): AgentGroup[] {
  const groups = new Map<string, AgentGroup>()
  for (const ask of asks) {
    const key = keyOf(ask.agent)
    let group = groups.get(key)
    if (!group) {
      group = { key, agent: ask.agent, asks: [], latest: ask.receivedAt }
      groups.set(key, group)
    }
    group.asks.push(ask)
    if (ask.receivedAt > group.latest) group.latest = ask.receivedAt
  }
  const list = [...groups.values()]
  for (const group of list) group.asks.sort((a, b) => a.receivedAt - b.receivedAt)
  return list.sort((a, b) => b.latest - a.latest)
}

/** The ask ids in the order the inbox shows them (for next/previous navigation). */
export function displayOrder(groups: readonly AgentGroup[]): string[] {
  return groups.flatMap((group) => group.asks.map((ask) => ask.askId))
}

/** A one-line summary of an ask for the list: its title, else the first question's header or text. */
export function askSummary(ask: Ask | HistoryEntry): string {
  if (ask.kind === 'approval') return ask.title ?? (ask.approval ? approvalSummary(ask.approval) : ask.askId)
  const first = ask.questions[0]
  return ask.title ?? first?.header ?? first?.question ?? ask.askId
}
