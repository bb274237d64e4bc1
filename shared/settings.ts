import { z } from 'zod'
import { LimitsSchema } from './limits'

/**
 * The person's settings, shared by the desktop app and `ask-user serve` (`settings.json` in the
 * companion's home folder). Every field has a default, so `{}` and a partial file are valid.
 */
export const SettingsSchema = z.object({
  /** Fixed port for the endpoint; 0 picks a free port at each start. */
  port: z.number().int().min(0).max(65535).default(0),
  startAtLogin: z.boolean().default(false),
  notifications: z.boolean().default(true),
  sound: z.boolean().default(true),
  doNotDisturb: z.boolean().default(false),
  language: z.enum(['system', 'en', 'zh']).default('system'),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  /** The packaged desktop app looks for a new release at start and every few hours (it installs on quit). */
  checkForUpdates: z.boolean().default(true),
  /** Keep a history of settled asks. */
  history: z.boolean().default(true),
  /** Newest settled asks kept in the history file. */
  historyLimit: z.number().int().min(1).max(100_000).default(1000),
  limits: LimitsSchema.default(LimitsSchema.parse({})),
})
export type Settings = z.infer<typeof SettingsSchema>

/** The settings a fresh install starts with. */
export const DEFAULT_SETTINGS: Settings = Object.freeze(SettingsSchema.parse({}))
