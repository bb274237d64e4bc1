import { STATUS_PATH, StatusRefusalSchema } from '../../../shared/endpoint'

/**
 * What answers on the page's own companion port: `companion` (its `GET /v1/status` refusal names the
 * service), `other-program` (some HTTP reply that is not the companion's: a 503, another server's page)
 * or `nothing` (no HTTP at all: the companion is down).
 */
export type PortAnswer = 'companion' | 'other-program' | 'nothing'

/**
 * Asks the page's own companion port who answers there, after its socket failed: a browser WebSocket
 * reports every failure alike (refused, closed, 401, not a WebSocket), so only a plain request can tell
 * "the companion is down" from "it is up and the socket will be retried" from "another program took
 * the port". No credential is sent: the companion's 401 names it (shared/endpoint.ts). The answer only
 * picks the words the page shows; trust comes from the proof alone. Resolves, never rejects.
 */
export async function whoAnswers(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): Promise<PortAnswer> {
  let response: Response
  try {
    response = await fetchImpl(STATUS_PATH, { method: 'GET', cache: 'no-store', credentials: 'omit' })
  } catch {
    return 'nothing'
  }
  if (response.status !== 401) return 'other-program'
  try {
    return StatusRefusalSchema.safeParse(await response.json()).success ? 'companion' : 'other-program'
  } catch {
    return 'other-program'
  }
}
