import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  CodeRequestSchema,
  DigitsRequestSchema,
  TicketRequestSchema,
  WINDOW_CLAIM_PATH,
  WINDOW_CODE_PATH,
  WINDOW_CONFIRM_PATH,
  WINDOW_REDEEM_PATH,
  WINDOW_SHOW_PATH,
} from '../shared/window-link'
import { bearerToken } from './handshake'
import { peerUidOf } from './peer-uid'
import { send } from './static-files'
import type { Redeemer, WindowAccess } from './window-access'

/** What the window-link routes need. */
export interface WindowRoutesContext {
  access: WindowAccess
  /** The page a code opens, without its fragment: `http://127.0.0.1:<port>/`. */
  pageBase: () => string
  /** Who is on the other end of a request's socket (default: the kernel's socket table, Linux only). */
  redeemer?: (req: IncomingMessage) => Redeemer | Promise<Redeemer>
  /** Brings the host's own window to the front (the desktop app); absent: `/v1/window/show` is 404. */
  showWindow?: () => void
}

const JSON_TYPE = 'application/json; charset=utf-8'
const MAX_BODY_BYTES = 4096

/** The window-link paths this module answers. */
export const WINDOW_PATHS: ReadonlySet<string> = new Set([
  WINDOW_CODE_PATH,
  WINDOW_REDEEM_PATH,
  WINDOW_CLAIM_PATH,
  WINDOW_CONFIRM_PATH,
  WINDOW_SHOW_PATH,
])

/**
 * `POST` routes that hand the window credential to a page, never through a URL or argv:
 * - `/v1/window/code` (bearer: the window credential) → `{code, url}`: a one-time link for `ask-user open`;
 * - `/v1/window/redeem` `{code}` → `{credential}` for our own uid's socket, `{confirm:{digits, ticket}}`
 *   where the uid cannot be told, or `{code, message}` with 403 (another user), 404 (unknown or expired)
 *   or 409 (the link was opened twice: every window is signed out);
 * - `/v1/window/claim` `{ticket}` → `{credential}` once the person confirmed, else 202 `{digits}`;
 * - `/v1/window/confirm` (bearer: the window credential) `{digits}` → 200, or 400 `WRONG_DIGITS`;
 * - `/v1/window/show` (bearer: the window credential) → 200 `{shown: true}` once the desktop app raised
 *   its window, or 404 `NO_OWN_WINDOW` from a companion without one (`ask-user serve`).
 */
export function handleWindowRoute(
  ctx: WindowRoutesContext,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (req.method !== 'POST') return reply(res, req, 405, { code: 'METHOD', message: 'use POST' })
  readBody(req).then(
    (body) => route(ctx, path, body, req, res),
    (error: unknown) => reply(res, req, 413, { code: 'TOO_LARGE', message: String(error) }),
  )
}

function route(ctx: WindowRoutesContext, path: string, body: unknown, req: IncomingMessage, res: ServerResponse): void {
  const { access } = ctx
  if (path === WINDOW_CODE_PATH || path === WINDOW_CONFIRM_PATH || path === WINDOW_SHOW_PATH) {
    if (!access.matches(bearerToken(req))) {
      return reply(res, req, 401, {
        code: 'NOT_A_WINDOW',
        message: 'this needs the window credential (window.json in the companion home), not the agent token',
      })
    }
  }
  if (path === WINDOW_SHOW_PATH) {
    if (ctx.showWindow === undefined) {
      return reply(res, req, 404, {
        code: 'NO_OWN_WINDOW',
        message: 'this companion has no window of its own (ask-user serve): open its page with a one-time link',
      })
    }
    ctx.showWindow()
    return reply(res, req, 200, { shown: true })
  }
  if (path === WINDOW_CODE_PATH) {
    const code = access.mintCode()
    return reply(res, req, 200, { code, url: `${ctx.pageBase()}#code=${code}` })
  }
  if (path === WINDOW_CONFIRM_PATH) {
    const digits = DigitsRequestSchema.safeParse(body)
    if (!digits.success || !access.confirm(digits.data.digits)) {
      return reply(res, req, 400, {
        code: 'WRONG_DIGITS',
        message: 'these are not the digits the page shows; look again (after 5 wrong tries the page shows new ones)',
      })
    }
    return reply(res, req, 200, { ok: true })
  }
  if (path === WINDOW_REDEEM_PATH) {
    const parsed = CodeRequestSchema.safeParse(body)
    if (!parsed.success)
      return reply(res, req, 400, { code: 'INVALID_FRAME', message: 'send {"code": "<the code from the link>"}' })
    const code = parsed.data.code
    return void Promise.resolve((ctx.redeemer ?? kernelRedeemer)(req)).then(
      (redeemer) => redemption(res, req, access.redeem(code, redeemer)),
      () => redemption(res, req, access.redeem(code, 'unknown')),
    )
  }
  const parsed = TicketRequestSchema.safeParse(body)
  if (!parsed.success)
    return reply(res, req, 400, { code: 'INVALID_FRAME', message: 'send {"ticket": "<the ticket from redeem>"}' })
  const claim = access.claim(parsed.data.ticket)
  if (claim.kind === 'waiting') return reply(res, req, 202, { digits: claim.digits })
  return redemption(res, req, claim)
}

function redemption(res: ServerResponse, req: IncomingMessage, result: ReturnType<WindowAccess['redeem']>): void {
  switch (result.kind) {
    case 'credential':
      return reply(res, req, 200, { credential: result.credential })
    case 'confirm':
      return reply(res, req, 202, { confirm: { digits: result.digits, ticket: result.ticket } })
    default:
      return reply(res, req, result.status, { code: result.code, message: result.message })
  }
}

/** The kernel's word on the peer: our uid, another uid, or unknown (not Linux, row not found). */
async function kernelRedeemer(req: IncomingMessage): Promise<Redeemer> {
  const { localAddress, localPort, remoteAddress, remotePort } = req.socket
  const uid = await peerUidOf({ localAddress, localPort, remoteAddress, remotePort })
  if (uid === undefined || typeof process.getuid !== 'function') return 'unknown'
  return uid === process.getuid() ? 'same-user' : 'other-user'
}

function reply(res: ServerResponse, req: IncomingMessage, status: number, body: object): void {
  send(res, req, status, JSON_TYPE, JSON.stringify(body))
}

/** The request body as JSON (`undefined` when it is not JSON); rejects past {@link MAX_BODY_BYTES}. */
function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`the body is over ${MAX_BODY_BYTES} bytes`))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      } catch {
        resolve(undefined)
      }
    })
    req.on('error', reject)
  })
}
