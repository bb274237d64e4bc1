import type { Ask, Outcome, Settings, UiServerFrame } from '../../shared'

/** One window's link to the companion's UI channel (see `DesktopCompanion.attachWindow`). */
export interface WindowAttachment {
  /** Hands the companion one frame from the window; the companion parses it again and replies. */
  receive(frame: unknown): void
  /** Detaches the window; no frame is sent after this. */
  close(): void
}

/**
 * What the desktop shell needs from the companion core (`core`'s `Companion` satisfies it):
 * the pending asks, their events, a UI channel per window, and a graceful close.
 */
export interface DesktopCompanion {
  /** The companion's home folder (settings, history, `endpoint.json`). */
  readonly home: string
  /** Asks waiting for the person, oldest first. */
  pending(): Ask[]
  /** Attaches a window: a `snapshot` frame is sent at once, then every broadcast. */
  attachWindow(send: (frame: UiServerFrame) => void): WindowAttachment
  on(event: 'added', listener: (ask: Ask) => void): () => void
  on(event: 'resolved', listener: (askId: string, outcome: Outcome) => void): () => void
  /** Stops the endpoint; agents get close 1001 and their pending asks resolve as `aborted`. */
  close(): Promise<void>
}

/** Reads and writes the person's settings (the core's `loadSettings` / `saveSettings` over one home). */
export interface SettingsPersistence {
  load(): Promise<{ settings: Settings; warning?: string }>
  save(settings: Settings): Promise<void>
}
