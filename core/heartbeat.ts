import type { WebSocket } from 'ws'

/**
 * Ping/pong liveness for every socket the companion holds: every `intervalMs` each socket that has not
 * answered the previous ping is terminated (its 'close' then runs the usual cleanup), the others are
 * pinged again. A peer therefore goes at most two intervals without a pong.
 */
export class Heartbeat {
  private readonly alive = new Map<WebSocket, boolean>()
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly intervalMs: number) {}

  /** Starts the timer (unref'd: it never keeps the process alive on its own). */
  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.intervalMs)
    this.timer.unref?.()
  }

  /** Stops the timer and forgets every socket. */
  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.alive.clear()
  }

  /** Watches a socket until it closes. */
  track(socket: WebSocket): void {
    this.alive.set(socket, true)
    socket.on('pong', this.onPong)
    socket.on('close', this.onClose) // 'close' comes once; `on` costs no once-wrapper per socket
  }

  // One listener of each kind for every socket (`this` is the socket): no closure per connection.
  private readonly onPong = ((alive: Map<WebSocket, boolean>) =>
    function (this: WebSocket): void {
      if (alive.has(this)) alive.set(this, true)
    })(this.alive)

  private readonly onClose = ((alive: Map<WebSocket, boolean>) =>
    function (this: WebSocket): void {
      alive.delete(this)
    })(this.alive)

  /** One round: terminate the silent, ping the rest. Exposed for tests. */
  tick(): void {
    for (const [socket, alive] of this.alive) {
      if (!alive) {
        this.alive.delete(socket)
        socket.terminate()
        continue
      }
      this.alive.set(socket, false)
      try {
        socket.ping()
      } catch {
        socket.terminate()
      }
    }
  }
}
