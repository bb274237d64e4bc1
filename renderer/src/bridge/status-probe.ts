import { STATUS_PATH } from '../../../shared/endpoint'

/**
 * Asks the page's own companion port whether anything answers HTTP there, after its socket failed: a
 * browser WebSocket reports every failure alike (refused, closed, 401), so only a plain request can
 * tell "the companion is down" from "it is up and the socket will be retried". No credential is sent:
 * any HTTP reply (the 401 of `GET /v1/status` without a bearer included) means reachable; a network
 * error means unreachable. Resolves, never rejects.
 */
export async function companionAnswers(
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<boolean> {
  try {
    await fetchImpl(STATUS_PATH, { method: 'GET', cache: 'no-store', credentials: 'omit' })
    return true
  } catch {
    return false
  }
}
