/** One `notifications/progress` the MCP server sends while a question waits. */
export interface WaitingProgress {
  progressToken: string | number
  /** Seconds waited so far (always increasing, as MCP requires). */
  progress: number
  message: string
}

/** The default interval between two progress notifications: 30 s, well inside every client's idle limit. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 30_000

/** How {@link startWaitingProgress} tells time and schedules; injectable for tests. */
export interface ProgressClock {
  now(): number
  setInterval(fn: () => void, ms: number): { unref?: () => void }
  clearInterval(handle: { unref?: () => void }): void
}

const REAL_CLOCK: ProgressClock = {
  now: () => Date.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
}

/** `the person has not answered yet (waiting 2 min 5 s)`: what a client may show beside the pending call. */
export function waitingMessage(waitedMs: number): string {
  const seconds = Math.floor(waitedMs / 1000)
  const minutes = Math.floor(seconds / 60)
  const hours = Math.floor(minutes / 60)
  const parts =
    hours > 0
      ? [`${hours} h`, `${minutes % 60} min`]
      : minutes > 0
        ? [`${minutes} min`, `${seconds % 60} s`]
        : [`${seconds} s`]
  return `the person has not answered yet (waiting ${parts.join(' ')})`
}

/**
 * Sends a progress notification for `progressToken` every `intervalMs` until the returned function is
 * called: clients that reset their request timeout on progress (the SDK's `resetTimeoutOnProgress`,
 * Claude Code's idle watchdog) then never cut a question the person has not answered yet. A failed
 * send is ignored (the call itself ends when the client goes away). `intervalMs <= 0` sends nothing.
 */
export function startWaitingProgress(
  progressToken: string | number,
  intervalMs: number,
  send: (progress: WaitingProgress) => Promise<void>,
  clock: ProgressClock = REAL_CLOCK,
): () => void {
  if (!(intervalMs > 0)) return () => {}
  const started = clock.now()
  let last = 0
  const handle = clock.setInterval(() => {
    const waited = clock.now() - started
    // Strictly increasing even if the clock stalls.
    last = Math.max(last + 0.001, Math.round(waited / 100) / 10)
    send({ progressToken, progress: last, message: waitingMessage(waited) }).catch(() => {})
  }, intervalMs)
  handle.unref?.()
  return () => clock.clearInterval(handle)
}
