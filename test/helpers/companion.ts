// Test helper: a real companion on 127.0.0.1, port 0, in a fresh temporary home folder.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startCompanion, type Companion, type CompanionOptions } from '../../core'

export interface TestCompanion {
  companion: Companion
  /** The temporary ASK_USER_HOME (endpoint.json, settings.json, history.jsonl live here). */
  home: string
  /** Closes the companion (graceful) and deletes the home folder. Safe to call twice. */
  cleanup: () => Promise<void>
}

/**
 * Starts a companion on port 0 in a new temp home. `writeDiscovery` defaults to true (the home is
 * private to this companion, so there is no conflict). Pass `home` to reuse a folder (it is then not
 * deleted by `cleanup`). Warnings are collected silently unless `onWarning` is given.
 *
 * ```ts
 * const { companion, cleanup } = await startTestCompanion()
 * afterEach(cleanup)
 * ```
 */
export async function startTestCompanion(options: CompanionOptions = {}): Promise<TestCompanion> {
  const ownHome = options.home === undefined
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'ask-user-test-')))
  let companion: Companion
  try {
    companion = await startCompanion({ port: 0, onWarning: () => undefined, ...options, home })
  } catch (error) {
    if (ownHome) await rm(home, { recursive: true, force: true })
    throw error
  }
  let done: Promise<void> | undefined
  const cleanup = (): Promise<void> =>
    (done ??= (async () => {
      try {
        await companion.close()
      } finally {
        // even when closing failed; retried, since a file the companion was still writing can race the removal
        if (ownHome) await rm(home, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 })
      }
    })())
  return { companion, home, cleanup }
}
