import { AskUserClient } from '../../agent/client'
import type { Answer } from '../../shared/answer'
import type { ValidatedAsk } from '../../shared/validate-input'
import { version } from '../../package.json'
import type { ApprovalDecision, ApprovalRequest, Notice } from '../../shared/approval'
import type { HookAgent } from '../../integrations/hook-work'

/** What a hook needs of the companion: one approval, one ask or one notice, then close. */
export interface HookCompanion {
  approve(request: ApprovalRequest, options: { signal: AbortSignal }): Promise<ApprovalDecision>
  ask(ask: ValidatedAsk, options: { signal: AbortSignal }): Promise<Answer[]>
  notify(notice: Notice): Promise<void>
  close(): Promise<void>
}

/**
 * The companion as `env` finds it (ASK_USER_URL/TOKEN or the discovery file), introduced as `agent`
 * (its session id included, which groups the session's calls) with the hook's parent as pid. Connecting is bounded by `connectTimeoutMs`,
 * so that a companion that accepts but never greets cannot hold the harness.
 */
export function hookCompanion(agent: HookAgent, env: NodeJS.ProcessEnv, connectTimeoutMs: number): HookCompanion {
  const client = new AskUserClient({
    env,
    name: agent.name,
    version,
    pid: process.ppid,
    connectTimeoutMs,
    // Hooks reach the local companion only, for now (issue 32: hooks through the relay come later).
    relay: false,
    ...(agent.cwd !== undefined ? { cwd: agent.cwd } : {}),
    ...(agent.title !== undefined ? { title: agent.title } : {}),
    ...(agent.session !== undefined ? { session: agent.session } : {}),
  })
  return {
    approve: (request, { signal }) => client.requestApproval(request, { signal }),
    ask: async (ask, { signal }) => (await client.ask(ask, { signal })).answers,
    notify: (notice) => client.notify(notice),
    close: () => client.close(),
  }
}
