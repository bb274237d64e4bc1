// Makes sure out/renderer (the page the companion serves) is built from the current sources.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = join(__dirname, '..', '..', '..')
/** The built renderer `startCompanion({staticDir})` serves. */
export const RENDERER_DIR = join(ROOT, 'out', 'renderer')

/** The newest modification time (ms) of any file under `dir`. */
export function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs
    if (mtime > newest) newest = mtime
  }
  return newest
}

let checked = false

/** Runs `electron-vite build` when out/renderer is missing or older than renderer/ or shared/. Once per process. */
export function ensureRendererBuilt(): void {
  if (checked) return
  checked = true
  const index = join(RENDERER_DIR, 'index.html')
  const sources = Math.max(newestMtime(join(ROOT, 'renderer')), newestMtime(join(ROOT, 'shared')))
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: ROOT,
      stdio: 'pipe',
    })
  } catch (error) {
    const output = (error as { stderr?: Buffer; stdout?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`electron-vite build failed, so the e2e tests have no page to serve:\n${output}`, { cause: error })
  }
}
