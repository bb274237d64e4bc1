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
  /** Oldest first: the order the agent asked in, and how long each has waited. */
  asks: Ask[]
  /** `receivedAt` of the agent's oldest ask: how long the agent has waited. */
  oldest: number
}

/**
 * Groups asks by agent ({@link agentKey}) so that the list answers "who has waited longest?": the
 * agent whose oldest ask is oldest comes first, and inside a group the asks go oldest first. A new
 * ask never lifts its agent above one that has waited longer. Ties keep arrival order (the sort is
 * stable). O(n log n); `asks` is not modified.
 */
export function groupByAgent(asks: readonly Ask[]): AgentGroup[] {
  const groups = new Map<string, AgentGroup>()
  for (const ask of asks) {
    const key = keyOf(ask.agent)
    let group = groups.get(key)
    if (!group) {
      group = { key, agent: ask.agent, asks: [], oldest: ask.receivedAt }
      groups.set(key, group)
    }
    group.asks.push(ask)
    if (ask.receivedAt < group.oldest) group.oldest = ask.receivedAt
  }
  const list = [...groups.values()]
  for (const group of list) group.asks.sort((a, b) => a.receivedAt - b.receivedAt)
  return list.sort((a, b) => a.oldest - b.oldest)
}

/** The ask ids in the order the inbox shows them (for next/previous navigation). */
export function displayOrder(groups: readonly AgentGroup[]): string[] {
  return groups.flatMap((group) => group.asks.map((ask) => ask.askId))
}

/**
 * A one-line summary of an ask (a history entry's heading): its title, else the first question's
 * header or text. `undefined` when the ask has none of these words (an empty question, which the tool
 * accepts): the caller shows "(no question text)" as the card does, never a blank line or an id.
 */
export function askSummary(ask: Ask | HistoryEntry): string | undefined {
  if (ask.kind === 'approval') return ask.title ?? (ask.approval ? approvalSummary(ask.approval) : ask.askId)
  const first = ask.questions[0]
  return nonEmpty(ask.title) ?? nonEmpty(first?.header) ?? nonEmpty(first?.question)
}

/**
 * What a list row says: the words the person reads (the question itself, or what an approval wants
 * to do), and beside them a short chip (the question's header, or the approval's tool) when there is
 * one. A batch with a title is named by its title; a question without text by its header or title.
 * `text` is `undefined` when there are no words at all: the row says "(no question text)".
 */
export function askRowText(ask: Ask): { chip: string | undefined; text: string | undefined } {
  if (ask.kind === 'approval') return { chip: ask.approval.tool, text: ask.title ?? approvalSummary(ask.approval) }
  const first = ask.questions[0]
  const header = nonEmpty(first?.header)
  const title = nonEmpty(ask.title)
  const question = nonEmpty(first?.question)
  const text = (ask.questions.length > 1 ? (title ?? question) : (question ?? title)) ?? header
  return { chip: header !== text ? header : undefined, text }
}

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== '' ? text : undefined
}
