import { DEFAULT_SETTINGS, SettingsSchema } from '../../shared'
import type { Settings } from '../../shared'
import type { SettingsPersistence } from './companion'
import { errorMessage } from '../../shared/describe-error'
import { Listeners } from '../../shared/listeners'

/** The person's settings as the main process holds them, saved through the core on every change. */
export interface SettingsStore {
  get(): Settings
  /**
   * Validates the merged settings and applies them at once; resolves once they are saved (saves are
   * serialized). Rejects on an invalid patch.
   */
  update(patch: Partial<Settings>): Promise<Settings>
  /** Called after each applied change; returns the unsubscribe function. */
  onChange(listener: (settings: Settings, previous: Settings) => void): () => void
}

/**
 * Loads the settings (a corrupt or invalid file falls back to the defaults; `warn` gets the reason,
 * and nothing throws) and returns a store that saves each change. A failed save is reported to `warn`
 * and keeps the in-memory value, so a read-only home never crashes the app.
 */
export async function openSettingsStore(
  persistence: SettingsPersistence,
  warn: (message: string) => void = console.warn,
): Promise<SettingsStore> {
  let current: Settings
  try {
    const loaded = await persistence.load()
    if (loaded.warning) warn(loaded.warning)
    const parsed = SettingsSchema.safeParse(loaded.settings)
    current = parsed.success ? parsed.data : DEFAULT_SETTINGS
  } catch (error) {
    warn(`settings could not be read, using the defaults: ${errorMessage(error)}`)
    current = DEFAULT_SETTINGS
  }
  const listeners = new Listeners<[settings: Settings, previous: Settings]>((error) =>
    warn(`a settings listener failed: ${errorMessage(error)}`),
  )
  // Saves run one after another, so the file always ends with the newest settings.
  let saving: Promise<void> = Promise.resolve()
  return {
    get: () => current,
    async update(patch) {
      const previous = current
      current = SettingsSchema.parse({ ...current, ...patch })
      listeners.emit(current, previous)
      const next = current
      saving = saving.then(() =>
        persistence.save(next).catch((error: Error) => warn(`settings could not be saved: ${error.message}`)),
      )
      await saving
      return next
    },
    onChange: (listener) => listeners.add(listener),
  }
}
