import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { ensurePrivateDir, writeFileAtomic } from '../../core/private-files'

/** The question window's last size and position, kept in `window-state.json` in the companion's home. */
export const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(320).max(10_000),
  height: z.number().int().min(240).max(10_000),
  maximized: z.boolean().default(false),
})
export type WindowState = z.infer<typeof WindowStateSchema>

export const DEFAULT_WINDOW_STATE: WindowState = { width: 760, height: 640, maximized: false }

/** A rectangle in screen coordinates (a display's work area). */
export interface Area {
  x: number
  y: number
  width: number
  height: number
}

/** Path of the window state file in `home`. */
export const windowStatePath = (home: string): string => join(home, 'window-state.json')

/**
 * Reads the saved window state; a missing, corrupt or invalid file gives the default size (never
 * throws). A saved position that no longer lies on any display (a monitor was unplugged) is dropped,
 * so the window opens centred instead of off-screen.
 */
export async function loadWindowState(home: string, displays: Area[] = []): Promise<WindowState> {
  let state: WindowState
  try {
    state = WindowStateSchema.parse(JSON.parse(await readFile(windowStatePath(home), 'utf8')))
  } catch {
    return DEFAULT_WINDOW_STATE
  }
  if (state.x !== undefined && state.y !== undefined && displays.length > 0) {
    const { x, y } = state
    const visible = displays.some(
      (d) => x + 40 > d.x && y + 40 > d.y && x < d.x + d.width - 40 && y < d.y + d.height - 40,
    )
    if (!visible) return { width: state.width, height: state.height, maximized: state.maximized }
  }
  return state
}

/** Writes the window state atomically (temp file + rename), mode 0600. */
export async function saveWindowState(home: string, state: WindowState): Promise<void> {
  await ensurePrivateDir(home)
  await writeFileAtomic(windowStatePath(home), JSON.stringify(state) + '\n')
}
