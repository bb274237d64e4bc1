import { z } from 'zod'

export { ENDPOINT_FILE } from './home-folder'

/** Path of the status endpoint (`ask-user status`): `GET` with the bearer token. */
export const STATUS_PATH = '/v1/status'

/** What the companion's `GET /v1/status` refusal names as its `service`: the page tells its port from another program's by it. */
export const COMPANION_SERVICE = 'ask-user-companion'

/**
 * The JSON body of the companion's 401 to `GET /v1/status` without the right bearer token. It names
 * the service so that a page whose socket failed can tell "the companion is there (restarted, or
 * starting)" from "another program holds the port". Anyone can answer the same words: it only chooses
 * which message the page shows, never whether the page trusts what answers (the proof decides that).
 */
export const StatusRefusalSchema = z.looseObject({
  code: z.literal('UNAUTHORIZED'),
  message: z.string(),
  service: z.literal(COMPANION_SERVICE),
})
export type StatusRefusal = z.infer<typeof StatusRefusalSchema>

/** The JSON body of `GET /v1/status`; extra keys from a newer companion are kept. */
export const CompanionStatusSchema = z.looseObject({
  protocol: z.number().int(),
  server: z.looseObject({ name: z.string(), version: z.string() }),
  pending: z.number().int().nonnegative(),
  agents: z.number().int().nonnegative(),
  windows: z.number().int().nonnegative(),
})
export type CompanionStatus = z.infer<typeof CompanionStatusSchema>
