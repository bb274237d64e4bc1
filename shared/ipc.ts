import { z } from 'zod'

export { IPC_CHANNELS } from './ipc-channels'

/** Payload of `companion:focus-ask`: show this pending ask. */
export const FocusAskRequestSchema = z.object({ askId: z.string() })
export type FocusAskRequest = z.infer<typeof FocusAskRequestSchema>

/**
 * Payload of `companion:open-link`: the URL of a link the person clicked. Main checks it again
 * (absolute http/https only) and asks the person before the system browser opens it.
 */
export const OpenLinkRequestSchema = z.object({ url: z.string().max(20_000) })
export type OpenLinkRequest = z.infer<typeof OpenLinkRequestSchema>

/** Payload of `companion:shown`: the ask on screen, or null when none is (empty inbox, history view). */
export const ShownAskReportSchema = z.object({ askId: z.string().nullable() })
export type ShownAskReport = z.infer<typeof ShownAskReportSchema>
