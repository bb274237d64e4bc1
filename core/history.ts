import type { Answer } from '../shared/answer'
import type { ApprovalDecision } from '../shared/approval'
import type { Ask, HistoryEntry, Outcome, QuestionAsk } from '../shared/ask'
import { readHistoryEntry } from './history-upgrade'
import { askJsonWith } from './ask-json'
import { appendPrivateFile, isErrnoCode, readPrivateFileTail, writeFileAtomic } from './private-files'
import { RecentLines } from './recent-lines'
import { boundedHistoryLine, utf8Bytes } from './history-cut'
import { DEFAULT_LIMITS } from '../shared/limits'
import type { Settlement } from './registry'
import { errorMessage } from '../shared/describe-error'
import { hasSecret } from '../shared/question-extras'

/** File name of the history inside the companion's home. */
export const HISTORY_FILE = 'history.jsonl'

/** Options of a {@link HistoryStore}. */
export interface HistoryOptions {
  /** false: nothing is written and reads return nothing. */
  enabled: boolean
  /** Newest entries kept; the file is compacted to this many when it grows past twice as many. */
  limit: number
  /** Appends are batched for this long (milliseconds, default 25) so the ask path never waits on disk. */
  flushDelayMs?: number
  /** Bytes of the file and of memory (default `limits.historyBytes`); the newest entries within half are kept. */
  maxBytes?: number
  /** Largest entry in bytes (default `limits.historyEntryBytes`); a longer one is cut (history-cut.ts). */
  entryBytes?: number
  /** Largest {@link HistoryStore.page} reply in bytes (default `limits.historyPageBytes`). */
  pageBytes?: number
  warn: (message: string) => void
}

/** A window's request for one page of the history, newest first. */
export interface HistoryPageRequest {
  /** At most this many entries. */
  limit: number
  /** The askId of the oldest entry the window has: the page starts after it (absent: the newest page). */
  before?: string
}

/** One page of the history: newest first, and whether older entries may follow (ask with `before`). */
export interface HistoryPage {
  entries: HistoryEntry[]
  more: boolean
}

/** Bytes of `{"type":"history","entries":[],"more":false}` and some room: what a page adds to its entries. */
const PAGE_ENVELOPE_BYTES = 64

/**
 * The history of settled asks: `history.jsonl`, one {@link HistoryEntry} per line, oldest first.
 * `record()` only buffers; a timer appends the batch asynchronously, so the ask path never waits on
 * disk. The newest `limit` lines are also kept in memory, so reads and compactions (rewriting the file
 * atomically with only those lines once it holds more than twice `limit`) never re-read the file.
 * Bounded in bytes as well: an entry longer than `entryBytes` is cut (history-cut.ts), memory and the
 * file never hold more than `maxBytes`, and a compaction keeps the newest entries within half of it.
 * Writes are serialized on one promise chain and never throw (failures go to `warn`). A torn or
 * invalid line (a crash mid-write) is skipped when the file is loaded, and the next append starts on a
 * fresh line.
 */
export class HistoryStore {
  private buffer: string[] = []
  private readonly recent: RecentLines
  private timer: NodeJS.Timeout | undefined
  private chain: Promise<void> = Promise.resolve()
  private lines = 0
  private fileBytes = 0
  private needsNewline = false
  private readonly maxBytes: number
  private readonly entryBytes: number
  private readonly pageBytes: number
  /** Batches handed to `recent` so far, and the newest of them the file already holds. */
  private batchesAdded = 0
  private batchesOnDisk = 0

  constructor(
    private readonly path: string,
    private readonly options: HistoryOptions,
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_LIMITS.historyBytes
    this.entryBytes = options.entryBytes ?? DEFAULT_LIMITS.historyEntryBytes
    this.pageBytes = options.pageBytes ?? DEFAULT_LIMITS.historyPageBytes
    this.recent = new RecentLines(options.limit, Math.floor(this.maxBytes / 2))
  }

  /** Loads the existing file once: keeps its newest valid entries, compacts it if it is too long. */
  async init(): Promise<void> {
    if (!this.options.enabled) return
    await this.enqueue(async () => {
      // Only the newest `maxBytes` of a longer file (left by an older version, or edited) are read;
      // a file of another user is refused, one of ours tightened to 0600.
      const { text, size } = await readTail(this.path, this.maxBytes)
      this.needsNewline = text !== '' && !text.endsWith('\n')
      this.lines = countLines(text)
      this.fileBytes = size
      const kept = parseEntries(text)
        .slice(-this.options.limit)
        .map((entry) => boundedHistoryLine(JSON.stringify(entry), this.entryBytes))
      this.recent.add(kept.join('\n'), kept.length)
      if (this.lines > 2 * this.options.limit || size > this.maxBytes) await this.compact()
    })
  }

  /** Buffers one settled ask for the next batched append. Never throws, never blocks. */
  record(entry: HistoryEntry): void {
    if (this.options.enabled) this.recordLine(JSON.stringify(entry))
  }

  /** {@link record} for an entry already serialized (see {@link historyLine}). */
  recordLine(line: string): void {
    if (!this.options.enabled) return
    this.buffer.push(boundedHistoryLine(line, this.entryBytes))
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushDelayMs ?? 25)
    this.timer.unref?.()
  }

  /** Appends everything buffered so far; resolves when it is on disk (or the failure was reported). */
  flush(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.buffer.length === 0) return this.chain
    const count = this.buffer.length
    const text = this.buffer.join('\n')
    this.buffer = []
    this.recent.add(text, count)
    const batch = ++this.batchesAdded
    return this.enqueue(async () => {
      // A compaction wrote the newest lines from memory, this batch's too when it was already there.
      if (batch <= this.batchesOnDisk) return
      const prefix = this.needsNewline ? '\n' : ''
      const appended = `${prefix}${text}\n`
      const bytes = utf8Bytes(appended)
      // Past either bound, the file is rewritten from memory (this batch included) instead.
      if (this.lines + count > 2 * this.options.limit || this.fileBytes + bytes > this.maxBytes) return this.compact()
      this.batchesOnDisk = batch
      await appendPrivateFile(this.path, appended)
      this.needsNewline = false
      this.lines += count
      this.fileBytes += bytes
    })
  }

  /** The newest `limit` entries (at most the configured limit), newest first. */
  async read(limit: number = this.options.limit): Promise<HistoryEntry[]> {
    if (!this.options.enabled) return []
    await this.flush()
    const count = Math.max(0, Math.min(limit, this.options.limit, this.recent.size))
    // A late answer appends a second line for its ask: the newest line of each ask wins.
    const seen = new Set<string>()
    const entries: HistoryEntry[] = []
    for (const line of this.recent.newestFirst()) {
      if (entries.length >= count) break
      const entry = JSON.parse(line) as HistoryEntry // our own serialization of validated entries
      if (seen.has(entry.askId)) continue
      seen.add(entry.askId)
      entries.push(entry)
    }
    return entries
  }

  /**
   * One page for a window: the newest entries (or those older than `before`) up to `limit`, as many as
   * fit in `pageBytes` (at least one). `before` names an entry the window was sent; when the history no
   * longer holds it, the page is empty and `more` false.
   */
  async page(request: HistoryPageRequest): Promise<HistoryPage> {
    if (!this.options.enabled) return { entries: [], more: false }
    await this.flush()
    const room = this.pageBytes - PAGE_ENVELOPE_BYTES
    const seen = new Set<string>()
    const entries: HistoryEntry[] = []
    let bytes = 0
    let started = request.before === undefined
    // A late answer appends a second line for its ask: the newest line of each ask wins.
    for (const line of this.recent.newestFirst()) {
      const askId = lineAskId(line)
      if (seen.has(askId)) continue
      seen.add(askId)
      if (!started) {
        started = askId === request.before
        continue
      }
      const lineBytes = utf8Bytes(line) + 1
      if (entries.length >= request.limit || (entries.length > 0 && bytes + lineBytes > room))
        return { entries, more: true }
      entries.push(JSON.parse(line) as HistoryEntry) // our own serialization of validated entries
      bytes += lineBytes
    }
    return { entries, more: false }
  }

  private async compact(): Promise<void> {
    const kept = this.recent.newest(this.options.limit)
    const through = this.batchesAdded
    const text = kept.count > 0 ? `${kept.text}\n` : ''
    await writeFileAtomic(this.path, text)
    this.batchesOnDisk = through
    this.lines = kept.count
    this.fileBytes = utf8Bytes(text)
    this.needsNewline = false
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(op).catch((error: unknown) => {
      this.options.warn(`history ${this.path}: ${errorMessage(error)}`)
    })
    return this.chain
  }
}

/** The history entry of a settled ask: the ask, how it ended and when, and the answers or the decision. */
export function historyEntry(ask: Ask, settlement: Settlement, settledAt: number, delivered = true): HistoryEntry {
  // The registry settles a question ask only as answered and an approval only as decided, so the
  // fields match the ask's kind.
  return { ...ask, ...settledFields(ask, settlement, settledAt, delivered) } as HistoryEntry
}

/** `JSON.stringify(historyEntry(…))`, from the ask's cached JSON (what the store appends). */
export function historyLine(ask: Ask, settlement: Settlement, settledAt: number, delivered = true): string {
  return askJsonWith(ask, settledFields(ask, settlement, settledAt, delivered))
}

/** What a history entry adds to its ask. */
type SettledFields = {
  outcome: Outcome
  settledAt: number
  answers?: Answer[]
  answeredOn?: string
  decision?: ApprovalDecision
  undelivered?: true
}

function settledFields(ask: Ask, settlement: Settlement, settledAt: number, delivered: boolean): SettledFields {
  const fields: SettledFields = { outcome: settlement.outcome, settledAt }
  if (settlement.outcome === 'decided') {
    fields.decision = settlement.decision
    if (settlement.answeredOn !== undefined) fields.answeredOn = settlement.answeredOn
  }
  // A secret ask keeps its question and "answered", never the value (nor a reference to it).
  // Another desk's answer is sealed to the agent: this companion knows only where it was given.
  else if (settlement.outcome === 'answered' && settlement.answeredOn !== undefined)
    fields.answeredOn = settlement.answeredOn
  else if (settlement.outcome === 'answered' && !hasSecret(ask)) fields.answers = settlement.answers
  if ((settlement.outcome === 'answered' || settlement.outcome === 'decided') && !delivered) fields.undelivered = true
  return fields
}

/**
 * The history entry of a late answer: its agent had gone; the person's answer is kept, undelivered.
 * Undefined for a secret ask: an undelivered secret is dropped, not kept.
 */
export function undeliveredEntry(ask: QuestionAsk, answers: Answer[], at: number): HistoryEntry | undefined {
  if (hasSecret(ask)) return undefined
  return { ...ask, outcome: 'agent-gone', settledAt: at, answers, undelivered: true }
}

/**
 * Parses JSONL history text, skipping blank, torn and invalid lines; a line of an earlier version is
 * upgraded to today's shape (history-upgrade.ts).
 */
export function parseEntries(text: string): HistoryEntry[] {
  const entries: HistoryEntry[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      continue // a torn line from a crash mid-write: skipped
    }
    const entry = readHistoryEntry(value)
    if (entry) entries.push(entry)
  }
  return entries
}

/** The file's tail (see readPrivateFileTail); empty when there is no file. */
async function readTail(path: string, maxBytes: number): Promise<{ text: string; size: number }> {
  try {
    return await readPrivateFileTail(path, maxBytes)
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return { text: '', size: 0 }
    throw error
  }
}

/** The askId of a history line: read from its start (where our serialization puts it), else parsed. */
function lineAskId(line: string): string {
  const match = /^\{"askId":"([^"\\]*)"/.exec(line)
  return match ? match[1]! : (JSON.parse(line) as HistoryEntry).askId
}

function countLines(text: string): number {
  let count = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++
  return text === '' || text.endsWith('\n') ? count : count + 1
}
