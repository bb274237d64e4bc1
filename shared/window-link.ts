import { z } from 'zod'

/**
 * How a window gets its credential without a secret in any URL or argv (docs/protocol.md, "Windows and
 * their credential"): `ask-user open` mints a one-time code with the window credential, the page is
 * opened at `/#code=<code>`, and the page redeems the code over POST. See core/window-routes.ts.
 */
export const WINDOW_CODE_PATH = '/v1/window/code'
export const WINDOW_REDEEM_PATH = '/v1/window/redeem'
export const WINDOW_CLAIM_PATH = '/v1/window/claim'
export const WINDOW_CONFIRM_PATH = '/v1/window/confirm'
/** Raises the desktop app's own window (`ask-user open` tries it first; 404 from `ask-user serve`). */
export const WINDOW_SHOW_PATH = '/v1/window/show'

/** The file in the companion home (0600, never endpoint.json) that holds the window credential. */
export const WINDOW_FILE = 'window.json'
export const WindowFileSchema = z.looseObject({ credential: z.string().min(1), page: z.string() })
export type WindowFile = z.infer<typeof WindowFileSchema>

export const CodeRequestSchema = z.object({ code: z.string().min(1).max(200) })
export const TicketRequestSchema = z.object({ ticket: z.string().min(1).max(200) })
export const DigitsRequestSchema = z.object({ digits: z.string().regex(/^\d{6}$/, 'six digits') })

/** `/v1/window/code`'s reply. */
export const MintedCodeSchema = z.object({ code: z.string(), url: z.string() })
/** `/v1/window/redeem` and `/claim` replies, by status: 200 credential, 202 confirm or digits, else a refusal. */
export const RedeemReplySchema = z.union([
  z.object({ credential: z.string().min(1) }),
  z.object({ confirm: z.object({ digits: z.string(), ticket: z.string() }) }),
  z.object({ digits: z.string() }),
  z.object({ code: z.string(), message: z.string() }),
])
export type RedeemReply = z.infer<typeof RedeemReplySchema>
