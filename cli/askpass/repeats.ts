import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'

/** How long a dismissal or an answer is remembered for re-runs by the same program (milliseconds). */
export const REPEAT_WINDOW_MS = 60_000

/** What the last runs for the same program ended with (epoch milliseconds; answers per prompt hash). */
const MemorySchema = z.object({
  dismissedAt: z.number().optional(),
  answered: z.record(z.string(), z.number()).optional(),
})
type Memory = z.infer<typeof MemorySchema>

/**
 * What earlier runs for the same parent (pid and command line) left behind: sudo and ssh re-run the
 * helper after a wrong password (up to 3 times). Kept in a 0700 folder of the user's temp folder,
 * one small file per parent, holding times and hashes only, never a prompt's answer.
 */
export class RepeatMemory {
  private readonly file: string

  constructor(parentKey: string, dir = join(tmpdir(), `ask-user-askpass-${process.getuid?.() ?? 'user'}`)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    this.file = join(dir, `${hash(parentKey)}.json`)
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
    try {
      const parsed = MemorySchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')))
      return parsed.success ? parsed.data : {}
    } catch {
      return {}
    }
  }

  private write(memory: Memory): void {
    try {
      writeFileSync(this.file, JSON.stringify(memory), { mode: 0o600 })
    } catch {
      // memory is a convenience: without it every run shows a card
    }
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32)
}
