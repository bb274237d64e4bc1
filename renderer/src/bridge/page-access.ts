import type { PageAccessState } from '../../../shared/bridge'
import { RedeemReplySchema, WINDOW_CLAIM_PATH, WINDOW_REDEEM_PATH, type RedeemReply } from '../../../shared/window-link'

/** The code in a page URL's fragment `#code=<code>`, if any. */
export function codeFromHash(hash: string): string | undefined {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get('code')
  return code ? code : undefined
}

/** How often the page asks whether the person confirmed its digits, in milliseconds. */
const CLAIM_INTERVAL_MS = 1_000

/** What the page's sign-in needs from its surroundings (injected in tests). */
export interface PageAccessOptions {
  /** Removes the fragment from the URL (default `history.replaceState`). */
  clearHash: () => void
  fetchImpl?: typeof fetch
}

/**
 * The served page's window credential: redeemed once from the link's one-time code, kept in memory
 * only (never in storage or the URL: a reload signs the page out, and says to run `ask-user open`).
 * Where the companion cannot tell the page's user (macOS, Windows) the page shows 6 digits for the
 * person to type where `ask-user open` runs, and waits for that.
 */
export class PageAccess {
  private credential: string | undefined
  private state: PageAccessState = { kind: 'none' }
  private readonly listeners = new Set<(state: PageAccessState) => void>()
  private readonly fetchImpl: typeof fetch

  constructor(private readonly options: PageAccessOptions) {
    this.fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init))
  }

  /** The credential, once redeemed (until {@link forget}). */
  current(): string | undefined {
    return this.credential
  }

  /** Drops the credential (it was rotated, or refused). */
  forget(): void {
    this.credential = undefined
  }

  onState(listener: (state: PageAccessState) => void): () => void {
    this.listeners.add(listener)
    listener(this.state)
    return () => this.listeners.delete(listener)
  }

  /**
   * Redeems the code of a page URL's fragment (`#code=…`; the fragment is removed from the address bar
   * at once), if there is one; resolves once the page holds a credential or cannot get one.
   */
  async start(hash: string): Promise<void> {
    const code = codeFromHash(hash)
    this.options.clearHash()
    if (code === undefined) return
    this.set({ kind: 'redeeming' })
    let reply = await this.post(WINDOW_REDEEM_PATH, { code })
    while (reply !== undefined && 'confirm' in reply) {
      const ticket = reply.confirm.ticket
      this.set({ kind: 'confirm', digits: reply.confirm.digits })
      reply = await this.waitForConfirmation(ticket)
    }
    if (reply !== undefined && 'credential' in reply) {
      this.credential = reply.credential
      return this.set({ kind: 'none' })
    }
    this.set({
      kind: 'refused',
      message:
        reply !== undefined && 'message' in reply ? reply.message : 'the companion did not answer; run `ask-user open`',
    })
  }

  private async waitForConfirmation(ticket: string): Promise<RedeemReply | undefined> {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, CLAIM_INTERVAL_MS))
      const reply = await this.post(WINDOW_CLAIM_PATH, { ticket })
      if (reply === undefined || !('digits' in reply)) return reply
      if (this.state.kind === 'confirm' && this.state.digits !== reply.digits)
        this.set({ kind: 'confirm', digits: reply.digits })
    }
  }

  private async post(path: string, body: object): Promise<RedeemReply | undefined> {
    try {
      const response = await this.fetchImpl(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        cache: 'no-store',
      })
      const parsed = RedeemReplySchema.safeParse(await response.json())
      return parsed.success ? parsed.data : undefined
    } catch {
      return undefined
    }
  }

  private set(state: PageAccessState): void {
    this.state = state
    for (const listener of [...this.listeners]) listener(state)
  }
}
