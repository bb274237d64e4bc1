import type { Companion } from '../../core'
import type { Settings } from '../../shared'

/**
 * What the desktop shell uses of the companion core: its home, the pending asks and their events, a
 * UI channel per window (a `snapshot` at once, then every broadcast), and the graceful close (agents
 * get close 1001 and their pending asks resolve as `aborted`).
 */
export type DesktopCompanion = Pick<Companion, 'home' | 'pending' | 'attachWindow' | 'on' | 'close'>

/** Reads and writes the person's settings (the core's `loadSettings` / `saveSettings` over one home). */
export interface SettingsPersistence {
  load(): Promise<{ settings: Settings; warning?: string }>
  save(settings: Settings): Promise<void>
}
