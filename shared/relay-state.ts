import { z } from 'zod'

/**
 * The relay as a window shows it ("Relay" view): what the companion's bridge knows about its link, this
 * desk and the roster. Public facts only: names, roles, times, counts. Never a credential, a seed, a
 * key or a pairing secret (a test looks for them in the frame).
 */

/** How long before the roster expires the view warns (as renewal does: relay/crypto ROSTER_RENEW_BEFORE_MS). */
export const ROSTER_WARN_BEFORE_MS = 7 * 24 * 3_600_000

/** How long before an agent's relay credential expires the view warns: its owner must run `relay add-agent` again. */
export const AGENT_CREDENTIAL_WARN_BEFORE_MS = 24 * 3_600_000

/**
 * The bridge's link to the relay. `connecting`: not reached yet since the start; `connected` since
 * `since`; `unreachable` since `since` (the bridge keeps trying); `stopped`: the bridge gave up, `reason`
 * says why and what to do.
 */
export const RelayLinkStateSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('connecting') }),
  z.strictObject({ state: z.literal('connected'), since: z.number() }),
  z.strictObject({ state: z.literal('unreachable'), since: z.number() }),
  z.strictObject({ state: z.literal('stopped'), reason: z.string() }),
])
export type RelayLinkState = z.infer<typeof RelayLinkStateSchema>

/** A desktop or device of the roster (who may answer). */
export const RelayDeviceViewSchema = z.strictObject({
  name: z.string(),
  role: z.enum(['desktop', 'device']),
  /** The member's key suite (`x25519-ed25519`; a phone may use another). */
  suite: z.string(),
  /** When it was added to the roster (ms since the epoch), when recorded. */
  pairedAt: z.number().optional(),
  /** Present on the entry of the desk this companion is. */
  self: z.literal(true).optional(),
})
export type RelayDeviceView = z.infer<typeof RelayDeviceViewSchema>

/** An agent of the roster (who may ask), under the name `relay add-agent` gave it. */
export const RelayAgentViewSchema = z.strictObject({
  name: z.string(),
  /** When its relay credential expires (ms), when this desk knows it. */
  credentialExpiresAt: z.number().optional(),
  /** Set with `credentialExpiresAt`: under {@link AGENT_CREDENTIAL_WARN_BEFORE_MS} left, or past. */
  credentialExpiresSoon: z.boolean().optional(),
  /** The last question or receipt this desk saw from it since the companion started (ms). */
  lastContactAt: z.number().optional(),
  /** Present when the person allowed this desk to answer the agent's password questions (`relay passwords`). */
  passwordsAllowed: z.literal(true).optional(),
  /** The paired devices (phones, by roster name) also allowed to answer its passwords (`relay passwords --on`). */
  passwordsOnDevices: z.array(z.string()).optional(),
})
export type RelayAgentView = z.infer<typeof RelayAgentViewSchema>

/** The roster this desk holds: its version and expiry; `expiresSoon` under {@link ROSTER_WARN_BEFORE_MS} (or past). */
export const RelayRosterViewSchema = z.strictObject({
  version: z.number(),
  expiresAt: z.number(),
  expiresSoon: z.boolean(),
})

/** The relay state one window is sent. `configured: false` is never sent (the view is hidden then). */
export const RelayStateSchema = z.strictObject({
  configured: z.boolean(),
  link: RelayLinkStateSchema,
  /** This desk: its name in the roster and whether it is the first desktop (holds the root key) or a paired device. */
  desk: z.strictObject({ name: z.string(), role: z.enum(['desktop', 'device']) }).optional(),
  roster: RelayRosterViewSchema.optional(),
  devices: z.array(RelayDeviceViewSchema),
  agents: z.array(RelayAgentViewSchema),
  /** Remote asks pending in this companion's inbox now. */
  pendingRemote: z.number().int().min(0),
  /** On the first desktop only: whether it mirrors its local agents' non-secret asks (`relay mirror`). */
  mirrorLocalAsks: z.boolean().optional(),
})
export type RelayState = z.infer<typeof RelayStateSchema>

/** companion → UI v2 window: the relay state, sent after the snapshot and on every change (never to v1 windows). */
export const RelayStateFrameSchema = z.object({ type: z.literal('relay/state'), state: RelayStateSchema })
export type RelayStateFrame = z.infer<typeof RelayStateFrameSchema>
