// Helpers shared by the Electron wiring tests.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Ask, InboxNotice, Outcome, QuestionAsk, UiServerFrame } from '../../../shared'
import type { WindowHandle } from '../../../core'
import type { DesktopCompanion } from '../../../electron/main/companion'
import type { TrayIconPaths } from '../../../electron/main/icon-paths'
import { WAIT_MS } from '../../helpers/waits'

/** Polls `check` until it returns true; rejects after `timeoutMs` with `what` in the message. */
export async function until(check: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A fresh private home folder; `cleanup()` removes it. */
export async function tempHome(): Promise<{ home: string; cleanup(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'ask-user-electron-'))
  return { home, cleanup: () => rm(home, { recursive: true, force: true, maxRetries: 5 }) }
}

const root = join(import.meta.dirname, '../../..')
const pair = (name: string) => ({
  x1: join(root, 'build/tray', `${name}.png`),
  x2: join(root, 'build/tray', `${name}@2x.png`),
})

/** The committed tray icons (what icon-paths.ts points at after a build). */
export const TEST_ICONS: TrayIconPaths = {
  template: pair('trayTemplate'),
  light: pair('tray-light'),
  dark: pair('tray-dark'),
  lightPending: pair('tray-light-pending'),
  darkPending: pair('tray-dark-pending'),
  overlay: pair('overlay'),
}

/** A hand-driven companion for the units that only need its events and pending list. */
export class ScriptedCompanion implements DesktopCompanion {
  home = '/tmp/scripted'
  asks: Ask[] = []
  closed = false
  private added = new Set<(ask: Ask) => void>()
  private resolved = new Set<(askId: string, outcome: Outcome) => void>()
  private notices = new Set<(notice: InboxNotice) => void>()
  pending(): Ask[] {
    return [...this.asks]
  }
  attachWindow(send: (frame: UiServerFrame) => void): WindowHandle {
    send({ type: 'snapshot', pending: this.pending() })
    return { receive: () => undefined, close: () => undefined }
  }
  on(event: 'added', listener: (ask: Ask) => void): () => void
  on(event: 'resolved', listener: (askId: string, outcome: Outcome) => void): () => void
  on(event: 'notice', listener: (notice: InboxNotice) => void): () => void
  on(
    event: 'added' | 'resolved' | 'notice',
    listener: ((ask: Ask) => void) | ((askId: string, outcome: Outcome) => void) | ((notice: InboxNotice) => void),
  ): () => void {
    const set = (event === 'added' ? this.added : event === 'resolved' ? this.resolved : this.notices) as Set<
      typeof listener
    >
    set.add(listener)
    return () => void set.delete(listener)
  }
  add(ask: Ask): void {
    this.asks.push(ask)
    for (const listener of this.added) listener(ask)
  }
  resolve(askId: string, outcome: Outcome = 'answered'): void {
    this.asks = this.asks.filter((ask) => ask.askId !== askId)
    for (const listener of this.resolved) listener(askId, outcome)
  }
  notice(notice: InboxNotice): void {
    for (const listener of this.notices) listener(notice)
  }
  async close(): Promise<void> {
    this.closed = true
  }
}

let counter = 0
/** A pending ask as the companion would mint it. */
export function makeAsk(
  agent: string,
  question = 'Which database?',
  extra: Partial<Omit<QuestionAsk, 'kind'>> = {},
): QuestionAsk {
  counter += 1
  return {
    kind: 'question',
    askId: `ask-${counter}`,
    agent: { name: agent, pid: 100 + counter },
    questions: [
      { id: 'q1', header: 'Database', question, options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }] },
    ],
    receivedAt: 1_700_000_000_000,
    ...extra,
  }
}
