import { randomBytes, randomInt } from 'node:crypto'
import { createTokenCheck, newToken } from './token'

/** How long a one-time link code may be redeemed (and a confirmation typed), in milliseconds. */
export const CODE_LIFETIME_MS = 60_000
/** Wrong confirmation digits allowed before the page is shown new ones. */
export const CONFIRM_TRIES = 5
/** How long a redeemed code is remembered, so that a second redemption raises the alarm. */
const USED_CODE_MEMORY_MS = 10 * 60_000

/** What the companion knows of the redeemer's side of the connection. */
export type Redeemer = 'same-user' | 'other-user' | 'unknown'

/** The outcome of one redemption attempt (see {@link WindowAccess.redeem}). */
export type Redemption =
  | { kind: 'credential'; credential: string }
  | { kind: 'confirm'; ticket: string; digits: string }
  | { kind: 'refused'; status: 403 | 404; code: 'OTHER_USER' | 'UNKNOWN_CODE'; message: string }
  | { kind: 'alarm'; status: 409; code: 'CODE_REUSED'; message: string }

interface LiveCode {
  expiresAt: number
  /** Set once the page asked for a confirmation (platforms without a peer-uid lookup). */
  confirm?: { ticket: string; digits: string; triesLeft: number; confirmed: boolean }
}

/**
 * Who may open a window: the window credential (256 bits, never in endpoint.json, never in a URL) and the
 * one-time codes that hand it to a page. A code is minted by a local holder of the credential
 * (`ask-user open`, `serve --open`), travels in the page URL, lives {@link CODE_LIFETIME_MS}, and is
 * redeemed once: at once for a peer socket owned by our own uid (Linux), after the person types the
 * page's 6 digits where that cannot be told (macOS, Windows). A second redemption of a code rotates the
 * credential (every window using it is closed) and both pages show an alarm.
 */
export class WindowAccess {
  private credential = newToken()
  private check = createTokenCheck(this.credential)
  private readonly codes = new Map<string, LiveCode>()
  private readonly used = new Map<string, number>()
  private readonly rotateListeners = new Set<(reason: string) => void>()

  constructor(private readonly now: () => number = Date.now) {}

  /** The current window credential (for the companion's own windows and window.json). */
  current(): string {
    return this.credential
  }

  /** Constant-time check of a presented window credential. */
  matches(presented: string | undefined): boolean {
    return this.check(presented)
  }

  /** Called after each rotation with its reason (the companion closes windows and rewrites window.json). */
  onRotate(listener: (reason: string) => void): () => void {
    this.rotateListeners.add(listener)
    return () => this.rotateListeners.delete(listener)
  }

  /** A new credential; every holder of the old one must open a window again (`ask-user open`). */
  rotate(reason: string): void {
    this.credential = newToken()
    this.check = createTokenCheck(this.credential)
    for (const listener of [...this.rotateListeners]) listener(reason)
  }

  /** A fresh one-time code for a page link (`#code=<code>`). */
  mintCode(): string {
    this.forgetExpired()
    const code = randomBytes(24).toString('base64url')
    this.codes.set(code, { expiresAt: this.now() + CODE_LIFETIME_MS })
    return code
  }

  /**
   * Redeems `code` for a page whose connection belongs to `redeemer`. Another user's attempt is refused
   * and leaves the code usable; an unknown or expired code is refused; a code already redeemed raises
   * the alarm (the credential rotates).
   */
  redeem(code: string, redeemer: Redeemer): Redemption {
    this.forgetExpired()
    if (this.used.has(code)) {
      this.rotate('a page link was opened a second time')
      return {
        kind: 'alarm',
        status: 409,
        code: 'CODE_REUSED',
        message:
          'this link was already opened once: someone else may have it. Every window was signed out; run `ask-user open` again',
      }
    }
    const live = this.codes.get(code)
    if (live === undefined) {
      return {
        kind: 'refused',
        status: 404,
        code: 'UNKNOWN_CODE',
        message: 'this link has expired or is not valid; run `ask-user open` for a new one',
      }
    }
    if (redeemer === 'other-user') {
      return {
        kind: 'refused',
        status: 403,
        code: 'OTHER_USER',
        message: 'this link can only be opened by the user who runs the companion',
      }
    }
    if (redeemer === 'same-user') return this.spend(code)
    live.confirm ??= {
      ticket: randomBytes(24).toString('base64url'),
      digits: sixDigits(),
      triesLeft: CONFIRM_TRIES,
      confirmed: false,
    }
    return { kind: 'confirm', ticket: live.confirm.ticket, digits: live.confirm.digits }
  }

  /**
   * The person typed `digits` (in the terminal of `ask-user open` or in the desktop window). True when
   * they match a waiting page; after {@link CONFIRM_TRIES} wrong tries the page gets new digits.
   */
  confirm(digits: string): boolean {
    this.forgetExpired()
    for (const live of this.codes.values()) {
      const confirm = live.confirm
      if (confirm === undefined || confirm.confirmed) continue
      if (confirm.digits === digits) {
        confirm.confirmed = true
        return true
      }
      confirm.triesLeft -= 1
      if (confirm.triesLeft <= 0) {
        confirm.digits = sixDigits()
        confirm.triesLeft = CONFIRM_TRIES
      }
    }
    return false
  }

  /** The page's claim after showing its digits: the credential once confirmed, else what to show now. */
  claim(ticket: string): Redemption | { kind: 'waiting'; digits: string } {
    this.forgetExpired()
    for (const [code, live] of this.codes) {
      if (live.confirm?.ticket !== ticket) continue
      return live.confirm.confirmed ? this.spend(code) : { kind: 'waiting', digits: live.confirm.digits }
    }
    return {
      kind: 'refused',
      status: 404,
      code: 'UNKNOWN_CODE',
      message: 'this link has expired or is not valid; run `ask-user open` for a new one',
    }
  }

  private spend(code: string): Redemption {
    this.codes.delete(code)
    this.used.set(code, this.now() + USED_CODE_MEMORY_MS)
    return { kind: 'credential', credential: this.credential }
  }

  private forgetExpired(): void {
    const now = this.now()
    for (const [code, live] of this.codes) if (live.expiresAt <= now) this.codes.delete(code)
    for (const [code, until] of this.used) if (until <= now) this.used.delete(code)
  }
}

function sixDigits(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}
