// The history's byte bounds: one entry, the file and memory, and one page to a window (docs/reliability.md,
// "History"). An agent alone can settle asks as fast as it likes (ask + cancel); none of it grows past
// the bounds, and a window pages through what is kept with `before`.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../../core/history'
import { CUT_MARK } from '../../../core/history-cut'
import { HistoryEntrySchema, type QuestionHistoryEntry } from '../../../shared/ask'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { V1ServerFrame as UiServerFrame } from '../../../core/ui-v1'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { asQuestion } from '../../helpers/ask-kinds'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent, poll } from './raw-agent'

let home: string
let t: TestCompanion | undefined
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-history-bounds-'))
})
afterEach(async () => {
  await t?.cleanup()
  t = undefined
  await rm(home, { recursive: true, force: true })
})

/** An entry of about `chars` characters of question text. */
const entry = (n: number, chars = 100): QuestionHistoryEntry => ({
  askId: `ask-${n}`,
  kind: 'question',
  agent: { name: 'flooder' },
  questions: [{ id: 'q1', question: `${n} ${'x'.repeat(chars)}` }],
  receivedAt: n,
  settledAt: n + 1,
  outcome: 'aborted',
})
const bytes = (text: string): number => Buffer.byteLength(text)

describe('history byte bounds', () => {
  it('keeps an entry over historyEntryBytes cut, marked truncated, and still valid after a restart', async () => {
    const path = join(home, 'history.jsonl')
    const store = new HistoryStore(path, { enabled: true, limit: 100, entryBytes: 2048, warn: () => undefined })
    await store.init()
    store.record(entry(1, 50_000))
    store.record({
      ...entry(2, 10),
      questions: [{ id: 'q1', question: '漢'.repeat(3000), options: [{ label: 'a'.repeat(5000) }] }],
    })
    store.record(entry(3, 10))
    await store.flush()
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean)
    expect(lines.map(bytes).every((size) => size <= 2048)).toBe(true)
    const [small, wide, long] = await store.read()
    expect(small).toEqual(entry(3, 10)) // within the bound: as it was
    expect(long).toMatchObject({ askId: 'ask-1', truncated: true, outcome: 'aborted' })
    expect(asQuestion(long!).questions[0]!.question.endsWith(CUT_MARK)).toBe(true)
    expect(wide).toMatchObject({ askId: 'ask-2', truncated: true })
    const reloaded = new HistoryStore(path, { enabled: true, limit: 100, entryBytes: 2048, warn: () => undefined })
    await reloaded.init()
    expect((await reloaded.read()).map((e) => e.askId)).toEqual(['ask-3', 'ask-2', 'ask-1'])
    for (const line of lines) expect(HistoryEntrySchema.safeParse(JSON.parse(line)).success).toBe(true)
  })

  it('an agent alone settling asks in a loop never takes the file or memory past historyBytes', async () => {
    const path = join(home, 'history.jsonl')
    const maxBytes = 64 * 1024
    const store = new HistoryStore(path, {
      enabled: true,
      limit: 100_000,
      maxBytes,
      entryBytes: 4096,
      warn: () => undefined,
    })
    await store.init()
    let n = 0
    for (let batch = 0; batch < 40; batch++) {
      for (let i = 0; i < 25; i++) store.record(entry(++n, 3000)) // each is cut to at most 4 KiB
      await store.flush()
      expect((await stat(path)).size).toBeLessThanOrEqual(maxBytes)
      expect(store['recent'].bytes).toBeLessThanOrEqual(maxBytes)
    }
    // A single batch larger than the whole bound (a shutdown settling every pending ask at once).
    for (let i = 0; i < 100; i++) store.record(entry(++n, 3000))
    await store.flush()
    expect((await stat(path)).size).toBeLessThanOrEqual(maxBytes)
    expect(store['recent'].bytes).toBeLessThanOrEqual(maxBytes)
    const kept = await store.read()
    expect(kept[0]!.askId).toBe(`ask-${n}`) // the newest are the ones kept
    expect(kept.length).toBeGreaterThan(5)
  })

  it('loads only the newest historyBytes of a longer file and compacts it', async () => {
    const path = join(home, 'history.jsonl')
    const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify(entry(i + 1, 200))).join('\n') + '\n'
    await writeFile(path, text)
    const maxBytes = 32 * 1024
    const store = new HistoryStore(path, { enabled: true, limit: 100_000, maxBytes, warn: () => undefined })
    await store.init()
    expect((await stat(path)).size).toBeLessThanOrEqual(maxBytes)
    const kept = await store.read()
    expect(kept[0]!.askId).toBe('ask-2000')
    expect(kept.every((e, i) => e.askId === `ask-${2000 - i}`)).toBe(true)
  })

  it('pages: each reply within historyPageBytes, `before` walks every entry once, newest first, then more:false', async () => {
    const path = join(home, 'history.jsonl')
    const pageBytes = 8 * 1024
    const store = new HistoryStore(path, { enabled: true, limit: 1000, pageBytes, warn: () => undefined })
    await store.init()
    for (let n = 1; n <= 120; n++) store.record(entry(n, 500))
    store.record({ ...entry(7, 500), outcome: 'agent-gone' }) // a second line for ask-7: the newest wins, once
    const seen: string[] = []
    let before: string | undefined
    for (let pages = 0; pages < 100; pages++) {
      const page = await store.page({ limit: 1000, ...(before === undefined ? {} : { before }) })
      expect(bytes(JSON.stringify({ type: 'history', ...page }))).toBeLessThanOrEqual(pageBytes)
      seen.push(...page.entries.map((e) => e.askId))
      if (!page.more) break
      before = page.entries.at(-1)!.askId
    }
    expect(seen).toEqual(expectedOrder())
    expect((await store.page({ limit: 5 })).entries.map((e) => e.askId)).toEqual([
      'ask-7',
      'ask-120',
      'ask-119',
      'ask-118',
      'ask-117',
    ])
    expect(await store.page({ limit: 5, before: 'no-such-ask' })).toEqual({ entries: [], more: false })
  })

  it("a window's history/get without before gets the newest page with more, and pages on with before", async () => {
    const limits = { ...DEFAULT_LIMITS, historyPageBytes: 4096 }
    t = await startTestCompanion({ settings: { limits } })
    const agent = await helloAgent(t.companion)
    for (let n = 1; n <= 20; n++) {
      agent.send(askFrame(`a${n}`, { title: `ask ${n} ${'t'.repeat(400)}` }))
      agent.send({ type: 'cancel', id: `a${n}` })
    }
    await poll(async () => (await t!.companion.history()).length).toBe(20)
    const ui = await connectUi(t.companion)
    const isHistory = (f: UiServerFrame): boolean => f.type === 'history'
    ui.send({ type: 'history/get', limit: 1000 })
    const first = await ui.nextFrame<Extract<UiServerFrame, { type: 'history' }>>(isHistory)
    expect(first.more).toBe(true)
    expect(first.entries.length).toBeGreaterThan(0)
    expect(first.entries[0]!.title).toMatch(/^ask 20 /)
    ui.send({ type: 'history/get', limit: 1000, before: first.entries.at(-1)!.askId })
    const second = await ui.nextFrame<Extract<UiServerFrame, { type: 'history' }>>(isHistory)
    expect(second.entries[0]!.title).toMatch(new RegExp(`^ask ${20 - first.entries.length} `))
    await ui.close()
  })
})

/** ask-7 first (its newest line is the newest of all), then 120 down to 1 without it. */
function expectedOrder(): string[] {
  return ['ask-7', ...Array.from({ length: 120 }, (_, i) => `ask-${120 - i}`).filter((id) => id !== 'ask-7')]
}
