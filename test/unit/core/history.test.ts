import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../../core/history'
import type { HistoryEntry, QuestionHistoryEntry } from '../../../shared/ask'
import { startTestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent } from './raw-agent'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-history-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

const entry = (n: number): QuestionHistoryEntry => ({
  askId: `ask-${n}`,
  kind: 'question',
  agent: { name: 'a' },
  questions: [{ id: 'q1', question: `question ${n}` }],
  receivedAt: n,
  settledAt: n + 1,
  outcome: 'answered',
  answers: [{ id: 'q1', selected: [] }],
})
const lines = async (path: string): Promise<number> => (await readFile(path, 'utf8')).split('\n').filter(Boolean).length

describe('HistoryStore', () => {
  it('keeps the newest `limit` entries, compacting past twice the limit', async () => {
    const path = join(home, 'history.jsonl')
    const store = new HistoryStore(path, { enabled: true, limit: 5, warn: () => undefined })
    await store.init()
    for (let n = 1; n <= 23; n++) {
      store.record(entry(n))
      if (n % 4 === 0) await store.flush()
    }
    await store.flush()
    expect(await lines(path)).toBeLessThanOrEqual(10)
    expect((await store.read()).map((e) => e.askId)).toEqual(['ask-23', 'ask-22', 'ask-21', 'ask-20', 'ask-19'])
    expect((await store.read(2)).map((e) => e.askId)).toEqual(['ask-23', 'ask-22'])
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600)
  })

  it('writes each line once when a compaction runs while the next batch waits for the disk', async () => {
    const path = join(home, 'history.jsonl')
    const store = new HistoryStore(path, { enabled: true, limit: 2, warn: () => undefined })
    await store.init()
    for (let n = 1; n <= 5; n++) store.record(entry(n))
    const first = store.flush() // 5 lines > twice the limit: its append is followed by a compaction
    store.record(entry(6))
    await Promise.all([first, store.flush()]) // queued behind the compaction, which already wrote ask-6
    const file = (await readFile(path, 'utf8')).split('\n').filter(Boolean)
    expect(file.map((line) => (JSON.parse(line) as HistoryEntry).askId)).toEqual(['ask-5', 'ask-6'])
    store.record(entry(7))
    await store.flush()
    expect(await lines(path)).toBe(3)
    expect((await store.read()).map((e) => e.askId)).toEqual(['ask-7', 'ask-6'])
  })

  it('skips a torn last line and starts the next append on a fresh line', async () => {
    const path = join(home, 'history.jsonl')
    await writeFile(path, `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2)).slice(0, 30)}`)
    const store = new HistoryStore(path, { enabled: true, limit: 10, warn: () => undefined })
    await store.init()
    expect((await store.read()).map((e) => e.askId)).toEqual(['ask-1'])
    store.record(entry(3))
    expect((await store.read()).map((e) => e.askId)).toEqual(['ask-3', 'ask-1'])
    await appendFile(path, 'not json\n{"askId":1}\n')
    const reloaded = new HistoryStore(path, { enabled: true, limit: 10, warn: () => undefined })
    await reloaded.init()
    expect((await reloaded.read()).map((e) => e.askId)).toEqual(['ask-3', 'ask-1'])
  })

  it('compacts an oversized file at start', async () => {
    const path = join(home, 'history.jsonl')
    await writeFile(path, Array.from({ length: 30 }, (_, i) => JSON.stringify(entry(i))).join('\n') + '\n')
    const store = new HistoryStore(path, { enabled: true, limit: 10, warn: () => undefined })
    await store.init()
    expect(await lines(path)).toBe(10)
  })

  it.runIf(process.platform !== 'win32')('tightens an existing history file to 0600', async () => {
    const path = join(home, 'history.jsonl')
    await writeFile(path, `${JSON.stringify(entry(1))}\n`, { mode: 0o644 })
    const store = new HistoryStore(path, { enabled: true, limit: 10, warn: () => undefined })
    await store.init()
    expect((await stat(path)).mode & 0o777).toBe(0o600)
  })

  it('writes nothing when disabled', async () => {
    const path = join(home, 'history.jsonl')
    const store = new HistoryStore(path, { enabled: false, limit: 10, warn: () => undefined })
    await store.init()
    store.record(entry(1))
    await store.flush()
    expect(await store.read()).toEqual([])
    await expect(stat(path)).rejects.toThrow()
  })

  it('keeps detail and a plan-review intent across a reload', async () => {
    const path = join(home, 'history.jsonl')
    const store = new HistoryStore(path, { enabled: true, limit: 10, warn: () => undefined })
    await store.init()
    const plan: QuestionHistoryEntry = {
      ...entry(1),
      questions: [
        {
          id: 'q1',
          question: 'Approve?',
          detail: '1. step',
          options: [{ label: 'Yes' }],
          intent: { kind: 'plan-review', approve: 'Yes' },
        },
      ],
      answers: [{ id: 'q1', selected: ['Yes'] }],
    }
    store.record(plan)
    await store.flush()
    const reloaded = new HistoryStore(path, { enabled: true, limit: 10, warn: () => undefined })
    await reloaded.init()
    expect(await reloaded.read()).toEqual([plan])
  })

  it('never throws on a write failure; it warns', async () => {
    const warnings: string[] = []
    const store = new HistoryStore(join(home, 'missing-dir', 'history.jsonl'), {
      enabled: true,
      limit: 10,
      warn: (m) => warnings.push(m),
    })
    await store.init()
    store.record(entry(1))
    await store.flush()
    expect(warnings.join()).toContain('ENOENT')
  })
})

describe('history through the companion', () => {
  it('records every settled ask; settings.history=false records nothing', async () => {
    for (const enabled of [true, false]) {
      const { companion, cleanup, home: h } = await startTestCompanion({ settings: { history: enabled } })
      const ui = await connectUi(companion)
      const agent = await helloAgent(companion)
      agent.send(askFrame('a1'))
      const ask = await ui.nextAsk()
      await ui.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])
      const history = await companion.history()
      if (enabled) {
        expect(history).toEqual([
          {
            ...ask,
            kind: 'question',
            outcome: 'answered',
            settledAt: expect.any(Number),
            answers: [{ id: 'q1', selected: ['SQLite'] }],
          },
        ])
      } else {
        expect(history).toEqual([])
        await expect(stat(join(h, 'history.jsonl'))).rejects.toThrow()
      }
      await ui.close()
      await cleanup()
    }
  })
})
