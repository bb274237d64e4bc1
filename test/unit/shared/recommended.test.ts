import { describe, expect, it } from 'vitest'
import { parseRecommended } from '../../../shared/recommended'

describe('parseRecommended', () => {
  it.each([
    ['Postgres (Recommended)', 'Postgres', true],
    ['Postgres(Recommended)', 'Postgres', true],
    ['Postgres (recommended)', 'Postgres', true],
    ['Postgres (RECOMMENDED)  ', 'Postgres', true],
    ['Postgres ( Recommended )', 'Postgres', true],
    ['Postgres (推荐)', 'Postgres', true],
    ['Postgres（推荐）', 'Postgres', true],
    ['Postgres （Recommended）', 'Postgres', true],
    ['Postgres', 'Postgres', false],
    ['(Recommended) Postgres', '(Recommended) Postgres', false],
    ['Postgres (Recommended) or not', 'Postgres (Recommended) or not', false],
    ['Postgres [Recommended]', 'Postgres [Recommended]', false],
    ['', '', false],
  ])('%j → text %j, recommended %s', (label, text, recommended) => {
    expect(parseRecommended(label)).toEqual({ text, recommended })
  })

  it('keeps a label that is only a marker as it is, still flagged', () => {
    expect(parseRecommended('(Recommended)')).toEqual({ text: '(Recommended)', recommended: true })
    expect(parseRecommended('  （推荐）')).toEqual({ text: '  （推荐）', recommended: true })
  })
})
