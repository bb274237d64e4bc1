import { CompanionStatusSchema } from '../shared/endpoint'
import type { CompanionStatus } from '../shared/endpoint'
import { AskUserError } from '../shared/error-codes'
import type { Transport } from '../shared/transport'
import { CloseCode } from '../shared/wire'
import { discoverEndpoint } from './discovery'
import { HandshakeError, dialCompanion } from './ws-transport'

export { CompanionStatusSchema, type CompanionStatus } from '../shared/endpoint'

/** A reachable companion: where it is (never the token) and what it reports. */
export interface StatusReport {
  /** The agent endpoint URL. */
  url: string
  status: CompanionStatus
}

/**
 * Asks the companion for its status over the agent endpoint, after it proved itself (shared/proof.ts:
 * the token never travels). Throws `NO_PROVIDER` with a message that says how to start the companion
 * when it cannot be found, reached or verified.
 */
export async function fetchStatus(
  env: NodeJS.ProcessEnv = process.env,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<StatusReport> {
  const endpoint = await discoverEndpoint(env)
  const status = await dialCompanion(endpoint, options.timeoutMs ?? 5_000, (transport) =>
    requestStatus(transport, options.signal),
  )
  return { url: endpoint.url, status }
}

/** Sends `status` on a proven transport and resolves with the companion's reply; the companion then closes. */
function requestStatus(transport: Transport, signal: AbortSignal | undefined): Promise<CompanionStatus> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      transport.close(CloseCode.NORMAL_CLOSURE, 'aborted')
      reject(new HandshakeError('aborted'))
    }
    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    transport.onmessage = (message) => {
      signal?.removeEventListener('abort', onAbort)
      let json: unknown
      try {
        json = message.kind === 'text' ? JSON.parse(message.text) : undefined
      } catch {
        json = undefined
      }
      const parsed = CompanionStatusSchema.safeParse(json)
      transport.close(CloseCode.NORMAL_CLOSURE, 'done')
      if (parsed.success) resolve(parsed.data)
      else
        reject(
          new AskUserError('NO_PROVIDER', 'the companion did not answer the status request like an Ask User Companion'),
        )
    }
    transport.onclose = (code) => reject(new HandshakeError(`connection closed with code ${code} before the status`))
    transport.send(JSON.stringify({ type: 'status' }))
  })
}
