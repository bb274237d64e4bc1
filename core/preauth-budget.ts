import type { Duplex } from 'node:stream'

/** How the companion bounds connections that have not yet proved they hold the token. */
export interface PreAuthOptions {
  /** Sockets not yet authenticated, at most; a newcomer past it drops the oldest (default 128). */
  maxSockets: number
  /** Milliseconds from the connection to its first request, plain or upgrade (default 3,000). */
  deadlineMs: number
  /** On Linux, close at accept a connection whose peer socket belongs to another user, root excepted (default true). */
  dropOtherUsers: boolean
}

/** The defaults of {@link PreAuthOptions} (docs/reliability.md, "Overload and hostile input"). */
export const DEFAULT_PRE_AUTH: Readonly<PreAuthOptions> = Object.freeze({
  maxSockets: 128,
  deadlineMs: 3_000,
  dropOtherUsers: true,
})

/**
 * The sockets that have not yet authenticated (no upgrade with a valid token so far), kept apart from
 * the connection cap so strangers cannot fill it: at most `maxSockets` of them, and when newcomers
 * arrive at a full budget the OLDEST are dropped, never the newcomers (an agent's fresh connection
 * always gets its turn, however many idle sockets a stranger keeps re-opening). Each also has a fixed
 * deadline from its connection to its first request. A socket leaves the budget when it closes or
 * when {@link authenticated} is called for it; from then on only the connection cap counts it.
 *
 * What "authenticated" means is the caller's decision (today: an upgrade that passed every handshake
 * check, token included, and fits under the connection cap); this module only keeps the books.
 */
export class PreAuthBudget {
  /** Pre-auth sockets in arrival order (oldest first), each with its deadline timer until its first request. */
  readonly #waiting = new Map<Duplex, NodeJS.Timeout | undefined>()
  /**
   * Pre-auth sockets whose upgrade passed every check under a proof subprotocol and that are proving
   * they hold the secret now (core/proof-stage.ts, its own deadline): still counted, but dropped only
   * once no idle socket is left to drop, so that a stranger's idle churn never cuts an agent's proof.
   */
  readonly #proving = new Set<Duplex>()
  #evicted = 0
  #sweepPending = false

  constructor(private readonly options: Pick<PreAuthOptions, 'maxSockets' | 'deadlineMs'>) {}

  /**
   * A new connection: counted and given its deadline. When the budget is over, the oldest are dropped
   * one turn of the event loop later (see {@link #sweepSoon}), never this newcomer.
   */
  admit(socket: Duplex): void {
    const deadline = setTimeout(destroySocket, this.options.deadlineMs, socket)
    deadline.unref()
    this.#waiting.set(socket, deadline)
    socket.on('close', this.#forgetThis)
    if (this.size > this.options.maxSockets) this.#sweepSoon()
  }

  /** Its first request arrived: the deadline is off (Node's request and keep-alive timeouts take over), it still counts. */
  requestArrived(socket: Duplex): void {
    if (!this.#waiting.has(socket)) return
    clearTimeout(this.#waiting.get(socket))
    this.#waiting.set(socket, undefined)
  }

  /** Its upgrade passed every check under a proof subprotocol: it is proving itself now (see {@link #proving}). */
  proving(socket: Duplex): void {
    if (!this.#waiting.has(socket)) return
    this.#forget(socket)
    this.#proving.add(socket)
  }

  /** It proved it holds the token: it leaves the budget (and its deadline) for good. */
  authenticated(socket: Duplex): void {
    this.#forget(socket)
    socket.off('close', this.#forgetThis)
  }

  /** True while `socket` is counted here (connected, not closed, not authenticated). */
  isPreAuth(socket: Duplex): boolean {
    return this.#waiting.has(socket) || this.#proving.has(socket)
  }

  /** Pre-auth sockets open now. */
  get size(): number {
    return this.#waiting.size + this.#proving.size
  }

  /** Pre-auth sockets dropped so far to make room for a newcomer. */
  get evicted(): number {
    return this.#evicted
  }

  /**
   * Drops the oldest down to the budget after the next poll phase, not at once: the kernel hands over
   * a whole queue of connections in one go (up to the listen backlog) before any of them is read, so
   * dropping at each accept would drop an agent whose upgrade request is already waiting behind a
   * stranger's burst. One turn later that request has been read and the agent is authenticated. The
   * budget may thus be exceeded by what one or two accept bursts bring, never for longer.
   */
  #sweepSoon(): void {
    if (this.#sweepPending) return
    this.#sweepPending = true
    setImmediate(() => setImmediate(this.#sweep)) // the inner one runs after the next poll phase
  }

  readonly #sweep = (): void => {
    this.#sweepPending = false
    while (this.size > this.options.maxSockets) {
      const oldest = this.#waiting.keys().next().value ?? this.#proving.values().next().value
      if (oldest === undefined) return
      this.#forget(oldest)
      this.#evicted++
      oldest.destroy()
    }
  }

  #forget(socket: Duplex): void {
    clearTimeout(this.#waiting.get(socket))
    this.#waiting.delete(socket)
    this.#proving.delete(socket)
  }

  /** One 'close' listener for every socket of this budget (`this` is the socket that closed). */
  readonly #forgetThis = ((budget: PreAuthBudget) =>
    function (this: Duplex): void {
      budget.#forget(this)
    })(this)
}

function destroySocket(socket: Duplex): void {
  socket.destroy()
}
