import { join } from 'node:path'
import { WINDOW_FILE, WindowFileSchema, type WindowFile } from '../shared/window-link'
import { readPrivateFile, removeFile, writeFileAtomic } from './private-files'

/**
 * Writes `window.json` (mode 0600, in the 0700 home): the window credential for local windows and
 * `ask-user open`. Never in endpoint.json: an agent given only the agent token (a remote one through a
 * forwarded port, say) can ask but never answer.
 */
export async function writeWindowFile(home: string, file: WindowFile): Promise<void> {
  await writeFileAtomic(join(home, WINDOW_FILE), `${JSON.stringify(file)}\n`)
}

/** Removes `window.json` only if it still holds `credential` (another companion may have replaced it). */
export async function removeWindowFile(home: string, credential: string): Promise<void> {
  let current: WindowFile | undefined
  try {
    const parsed = WindowFileSchema.safeParse(JSON.parse(await readPrivateFile(join(home, WINDOW_FILE))))
    current = parsed.success ? parsed.data : undefined
  } catch {
    return
  }
  if (current?.credential !== credential) return
  await removeFile(join(home, WINDOW_FILE))
}
