import { z } from 'zod'

export { ENDPOINT_FILE } from './home-folder'

/** Path of the status endpoint (`ask-user status`): `GET` with the bearer token. */
export const STATUS_PATH = '/v1/status'

/** The JSON body of `GET /v1/status`; extra keys from a newer companion are kept. */
export const CompanionStatusSchema = z.looseObject({
  protocol: z.number().int(),
  server: z.looseObject({ name: z.string(), version: z.string() }),
  pending: z.number().int().nonnegative(),
  agents: z.number().int().nonnegative(),
  windows: z.number().int().nonnegative(),
})
export type CompanionStatus = z.infer<typeof CompanionStatusSchema>
