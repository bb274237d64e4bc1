import type { WebSocket } from 'ws'

/**
 * The bound on what the companion holds queued, unread, for all windows together (`bufferedAmount` of
 * their sockets: bytes ws and the TCP stream hold because the window has not read them). Each window
 * is also capped on its own (ws-transport.ts); without this, a thousand windows that stop reading could
 * each hold just under that cap. Past `maxBytes`, the window with the most queued is cut (terminated)
 * first, then the next, until the total fits again; a cut window reconnects and gets a fresh snapshot.
 *
 * The total is counted over every window at most once per tick (a broadcast sends to every window in
 * one tick) and kept up to date within the tick by adding what each send queued.
 */
export class WindowQueues {
  private readonly sockets = new Set<WebSocket>()
  /** The total as counted this tick plus what was sent since; undefined once the tick is over. */
  private counted: number | undefined

  constructor(private readonly maxBytes: number) {}

  /** Counts `socket` as a window until it closes. */
  track(socket: WebSocket): void {
    this.sockets.add(socket)
    socket.once('close', () => this.sockets.delete(socket))
  }

  /**
   * Called after `bytes` were sent to a window: when anything is queued on it, checks the total and
   * cuts the biggest queues until it fits.
   */
  sent(socket: WebSocket, bytes: number): void {
    if (socket.bufferedAmount === 0) return
    if (this.counted === undefined) {
      this.counted = this.count()
      process.nextTick(() => (this.counted = undefined))
    } else {
      this.counted += bytes
    }
    while (this.counted > this.maxBytes) {
      const biggest = this.biggest()
      if (!biggest) return
      this.counted -= biggest.bufferedAmount
      this.sockets.delete(biggest)
      biggest.terminate()
    }
  }

  private count(): number {
    let total = 0
    for (const socket of this.sockets) total += socket.bufferedAmount
    return total
  }

  private biggest(): WebSocket | undefined {
    let found: WebSocket | undefined
    for (const socket of this.sockets) if (!found || socket.bufferedAmount > found.bufferedAmount) found = socket
    return found
  }
}
