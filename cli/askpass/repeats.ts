import { createHash } from 'node:crypto'
import { isAbsolute, join } from 'node:path'
import { z } from 'zod'
import { companionHome } from '../../agent/discovery'
import { ensurePrivateDirSync, readPrivateFileSync, writeFileAtomicSync } from '../../core/private-files-sync'

/** How long a dismissal or an answer is remembered for re-runs by the same program (milliseconds). */
export const REPEAT_WINDOW_MS = 60_000

/** What the last runs for the same program ended with (epoch milliseconds; answers per prompt hash). */
const MemorySchema = z.object({
  dismissedAt: z.number().optional(),
  answered: z.record(z.string(), z.number()).optional(),
})
type Memory = z.infer<typeof MemorySchema>

/**
 * Where the askpass notes are kept: `ask-user-askpass` in `$XDG_RUNTIME_DIR` (the user's own 0700
 * runtime folder, emptied at logout) when it is set, else `askpass` in the companion's home. Never the
 * shared temp folder, where another user could make the folder first. Pure.
 */
export function askpassNotesFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const runtime = env['XDG_RUNTIME_DIR']
  if (platform !== 'win32' && runtime !== undefined && isAbsolute(runtime)) return join(runtime, 'ask-user-askpass')
  return join(companionHome(env, platform), 'askpass')
}

/**
 * What earlier runs for the same parent (pid and command line) left behind: sudo and ssh re-run the
 * helper after a wrong password (up to 3 times). Kept in a private folder ({@link askpassNotesFolder}),
 * one small file per parent, holding times and hashes only, never a prompt's answer. A convenience,
 * never a judge: a folder or note that is not ours (another user's, a link, a special file) is skipped,
 * so the run remembers nothing and the person sees the card.
 */
export class RepeatMemory {
  /** Undefined when the folder was refused: nothing is read or written. */
  private readonly file: string | undefined

  constructor(parentKey: string, dir = askpassNotesFolder(process.env)) {
    try {
      ensurePrivateDirSync(dir)
      this.file = join(dir, `${hash(parentKey)}.json`)
    } catch {
      this.file = undefined
    }
  }

  /** True when the person dismissed a card of this parent within the window: exit at once, no card. */
  recentlyDismissed(now: number): boolean {
    const at = this.read().dismissedAt
    return at !== undefined && now - at < REPEAT_WINDOW_MS
  }

  /** True when this prompt of this parent was answered within the window (so the answer was refused). */
  isRepeat(prompt: string, now: number): boolean {
    const at = this.read().answered?.[hash(prompt)]
    return at !== undefined && now - at < REPEAT_WINDOW_MS
  }

  /** Remembers an answer to `prompt`. */
  answered(prompt: string, now: number): void {
    const memory = this.read()
    this.write({ ...memory, answered: { ...memory.answered, [hash(prompt)]: now } })
  }

  /** Remembers a dismissal. */
  dismissed(now: number): void {
    this.write({ ...this.read(), dismissedAt: now })
  }

  private read(): Memory {
    if (this.file === undefined) return {}
    try {
      const parsed = MemorySchema.safeParse(JSON.parse(readPrivateFileSync(this.file)))
      return parsed.success ? parsed.data : {}
    } catch {
      return {}
    }
  }

  private write(memory: Memory): void {
    if (this.file === undefined) return
    try {
      writeFileAtomicSync(this.file, JSON.stringify(memory))
    } catch {
      // memory is a convenience: without it every run shows a card
    }
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32)
}
