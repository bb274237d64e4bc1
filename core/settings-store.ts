import { join } from 'node:path'
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../shared/settings'
import { ensurePrivateDir, isErrnoCode, readPrivateFile, writeFileAtomic } from './private-files'
import { errorMessage } from '../shared/describe-error'
import { describeFirstIssue } from '../shared/issue-wording'

/** File name of the settings inside the companion's home. */
export const SETTINGS_FILE = 'settings.json'

/**
 * Reads `settings.json` from `home`. A missing file gives the defaults silently; an unreadable,
 * non-JSON or schema-invalid file gives the defaults plus a `warning` naming the problem. Never throws.
 */
export async function loadSettings(home: string): Promise<{ settings: Settings; warning?: string }> {
  const path = join(home, SETTINGS_FILE)
  let text: string
  try {
    text = await readPrivateFile(path)
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return { settings: cloneDefaults() }
    return {
      settings: cloneDefaults(),
      warning: `cannot read ${path} (${errorMessage(error)}); using default settings`,
    }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return {
      settings: cloneDefaults(),
      warning: `${path} is not valid JSON (${errorMessage(error)}); using default settings`,
    }
  }
  const parsed = SettingsSchema.safeParse(json)
  if (!parsed.success) {
    const where = describeFirstIssue(json, parsed.error.issues, 'invalid', 'settings')
    return { settings: cloneDefaults(), warning: `${path} has invalid settings (${where}); using default settings` }
  }
  return { settings: parsed.data }
}

/** Writes `settings` to `home/settings.json` atomically (temp file + rename), mode 0600, folder 0700. */
export async function saveSettings(home: string, settings: Settings): Promise<void> {
  const valid = SettingsSchema.parse(settings)
  await ensurePrivateDir(home)
  await writeFileAtomic(join(home, SETTINGS_FILE), `${JSON.stringify(valid, null, 2)}\n`)
}

/**
 * Layers `overrides` over `base` (the nested `limits` merged key by key) and validates the result.
 * Throws on invalid overrides: they come from code, not from the person.
 */
export function mergeSettings(base: Settings, overrides: Partial<Settings> | undefined): Settings {
  if (!overrides) return base
  return SettingsSchema.parse({ ...base, ...overrides, limits: { ...base.limits, ...overrides.limits } })
}

function cloneDefaults(): Settings {
  return { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits } }
}
