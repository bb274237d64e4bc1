import { CompanionStatusSchema } from '../shared/endpoint'
import type { CompanionStatus } from '../shared/endpoint'
import { AskUserError } from '../shared/error-codes'
import { discoverEndpoint, statusUrl } from './discovery'
import { noCompanion } from './errors'

export { CompanionStatusSchema, type CompanionStatus } from '../shared/endpoint'

/** A reachable companion: where it is (never the token) and what it reports. */
export interface StatusReport {
  /** The agent endpoint URL. */
  url: string
  status: CompanionStatus
}

/**
 * Asks the companion for its status (`GET /v1/status` with the bearer token). Throws `NO_PROVIDER`
 * with a message that says how to start the companion when it cannot be found or reached.
 */
export async function fetchStatus(
  env: NodeJS.ProcessEnv = process.env,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<StatusReport> {
  const endpoint = await discoverEndpoint(env)
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 5_000), ...(options.signal ? [options.signal] : [])]
  let response: Response
  try {
    response = await fetch(statusUrl(endpoint.url), {
      headers: { Authorization: `Bearer ${endpoint.token}` },
      signal: AbortSignal.any(signals),
      redirect: 'error',
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    throw noCompanion(`cannot reach the Ask User Companion at ${endpoint.url} (${cause?.code ?? String(error)})`, error)
  }
  if (!response.ok) {
    const hint = response.status === 401 ? '; the token may be stale' : ''
    throw noCompanion(`the Ask User Companion at ${endpoint.url} answered HTTP ${response.status}${hint}`)
  }
  const parsed = CompanionStatusSchema.safeParse(await response.json().catch(() => undefined))
  if (!parsed.success) throw new AskUserError('NO_PROVIDER', `${endpoint.url} did not answer like an Ask User Companion`)
  return { url: endpoint.url, status: parsed.data }
}
