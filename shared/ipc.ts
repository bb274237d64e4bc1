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

/** Payload of `companion:phone-pair-decide`: the person's decision on pairing `pairId` (false also cancels). */
export const PhonePairDecisionSchema = z.strictObject({ pairId: z.string().max(64), confirm: z.boolean() })
export type PhonePairDecision = z.infer<typeof PhonePairDecisionSchema>

/**
 * Payload of `companion:phone-pair-state`, from main: `offer` (show `link` as a QR code until
 * `expiresAt`, ms), `confirm` (a phone named `name` asks; both screens show `code`), `paired`, or
 * `stopped` (`alarm`: someone else saw the offer; `message` says what happened and what to do).
 */
export const PhonePairStateSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('offer'), pairId: z.string(), link: z.string(), expiresAt: z.number() }),
  z.strictObject({ state: z.literal('confirm'), pairId: z.string(), name: z.string(), code: z.string() }),
  z.strictObject({ state: z.literal('paired'), pairId: z.string(), name: z.string() }),
  z.strictObject({
    state: z.literal('stopped'),
    pairId: z.string().optional(),
    code: z.string(),
    message: z.string(),
    alarm: z.boolean(),
  }),
])
export type PhonePairState = z.infer<typeof PhonePairStateSchema>
/**
 * One change to the relay the person makes in the desktop window's Relay view. Each `type` is one of
 * the UI channel's `ANSWERER_CHANGES` (ui.ts): the served page can never send it. `relay/mirror-local`
 * turns "mirror local asks" on or off; `relay/remote-passwords` allows (or stops allowing) password
 * questions from the remote agent called `agent`; `devices/remove` removes the roster member `name`.
 */
export const RelayChangeSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('relay/mirror-local'), on: z.boolean() }),
  z.strictObject({
    type: z.literal('relay/remote-passwords'),
    agent: z.string().min(1).max(200),
    allow: z.boolean(),
    /** A paired device (a phone) by its roster name: the change is that phone's (`relay passwords … --on`). */
    on: z.string().min(1).max(200).optional(),
  }),
  z.strictObject({ type: z.literal('devices/remove'), name: z.string().min(1).max(200) }),
])
export type RelayChange = z.infer<typeof RelayChangeSchema>

/** Payload of `companion:relay-change`: a change and the id its result will carry. */
export const RelayChangeRequestSchema = z.strictObject({
  changeId: z.string().min(1).max(100),
  change: RelayChangeSchema,
})
export type RelayChangeRequest = z.infer<typeof RelayChangeRequestSchema>

/**
 * Payload of `companion:relay-change-result`: the change was applied (the view then follows the next
 * `relay/state`), or refused with a stable `code` and a `message` that says what to do.
 */
export const RelayChangeResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({ changeId: z.string(), ok: z.literal(true) }),
  z.strictObject({ changeId: z.string(), ok: z.literal(false), code: z.string(), message: z.string() }),
])
export type RelayChangeResult = z.infer<typeof RelayChangeResultSchema>
