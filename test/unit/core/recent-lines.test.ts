import { describe, expect, it } from 'vitest'
import { RecentLines } from '../../../core/recent-lines'

const batch = (from: number, to: number): [string, number] => {
  const lines = []
  for (let n = from; n <= to; n++) lines.push(`line ${n}`)
  return [lines.join('\n'), lines.length]
}

describe('RecentLines', () => {
  it('reads the lines back newest first, across batches', () => {
    const recent = new RecentLines(10)
    recent.add(...batch(1, 3))
    recent.add(...batch(4, 4))
    expect([...recent.newestFirst()]).toEqual(['line 4', 'line 3', 'line 2', 'line 1'])
    expect(recent.newest(3)).toEqual({ text: 'line 2\nline 3\nline 4', count: 3 })
    expect(recent.newest(1)).toEqual({ text: 'line 4', count: 1 })
    expect(recent.newest(4)).toEqual({ text: 'line 1\nline 2\nline 3\nline 4', count: 4 })
    expect(recent.newest(9)).toEqual({ text: 'line 1\nline 2\nline 3\nline 4', count: 4 })
    expect(recent.newest(0)).toEqual({ text: '', count: 0 })
    expect(recent.size).toBe(4)
  })

  it('keeps at least the newest `keep` lines, dropping whole old batches past twice as many', () => {
    const recent = new RecentLines(4)
    recent.add(...batch(1, 3))
    recent.add(...batch(4, 6))
    expect(recent.size).toBe(6) // not past 8 yet
    recent.add(...batch(7, 9)) // 9 > 8: the oldest batch goes, 6 remain (≥ 4)
    expect(recent.size).toBe(6)
    expect([...recent.newestFirst()].reverse()).toEqual(['line 4', 'line 5', 'line 6', 'line 7', 'line 8', 'line 9'])
    recent.add(...batch(10, 20)) // one large batch: every older one goes, the large one stays whole
    expect(recent.size).toBe(11)
    expect(recent.newest(4)).toEqual({ text: 'line 17\nline 18\nline 19\nline 20', count: 4 })
    expect(recent.newest(13)).toEqual({
      text: Array.from({ length: 11 }, (_, i) => `line ${i + 10}`).join('\n'),
      count: 11,
    })
  })

  it('ignores an empty batch', () => {
    const recent = new RecentLines(2)
    recent.add('', 0)
    expect([...recent.newestFirst()]).toEqual([])
  })
})
