import { AskUserClient } from '../../agent/client'
import type { Answer } from '../../shared/answer'
import type { ValidatedAsk } from '../../shared/validate-input'
import { version } from '../../package.json'
import type { ApprovalDecision, ApprovalRequest, Notice } from './contract'
import type { HookAgent } from './plan'

/** What a hook needs of the companion: one approval, one ask or one notice, then close. */
export interface HookCompanion {
  approve(request: ApprovalRequest, options: { signal: AbortSignal }): Promise<ApprovalDecision>
  ask(ask: ValidatedAsk, options: { signal: AbortSignal }): Promise<Answer[]>
  notify(notice: Notice): Promise<void>
  close(): Promise<void>
}

/** The approval and notice methods of the client (brief 11a), where this build's client has them. */
interface ApprovalClient {
  requestApproval(request: ApprovalRequest, options: { signal?: AbortSignal }): Promise<ApprovalDecision>
  notify(notice: Notice): Promise<void>
}

function hasApprovals(client: object): client is ApprovalClient {
  return typeof (client as Partial<ApprovalClient>).requestApproval === 'function' && typeof (client as Partial<ApprovalClient>).notify === 'function'
}

/**
 * The companion as `env` finds it (ASK_USER_URL/TOKEN or the discovery file), introduced as `agent`
 * with the harness's process (the hook's parent) as pid. Connecting is bounded by `connectTimeoutMs`,
 * so that a companion that accepts but never greets cannot hold the harness.
 */
export function hookCompanion(agent: HookAgent, env: NodeJS.ProcessEnv, connectTimeoutMs: number): HookCompanion {
  const client = new AskUserClient({
    env,
    name: agent.name,
    version,
    pid: process.ppid,
    connectTimeoutMs,
    ...(agent.cwd !== undefined ? { cwd: agent.cwd } : {}),
    ...(agent.title !== undefined ? { title: agent.title } : {}),
  })
  const approvals = (): ApprovalClient => {
    if (!hasApprovals(client)) throw new Error('this ask-user build has no approval support')
    return client
  }
  return {
    approve: (request, { signal }) => approvals().requestApproval(request, { signal }),
    ask: async (ask, { signal }) => (await client.ask(ask, { signal })).answers,
    notify: (notice) => approvals().notify(notice),
    close: () => client.close(),
  }
}
