// One ask's state on its own: draft edits, their mirror in storage, the form check and the send lock.
import { beforeEach, describe, expect, it } from 'vitest'
import { DraftStorage, draftKey } from '../../renderer/src/lib/draft-storage'
import { CardState } from '../../renderer/src/state/card.svelte'
import { makeAsk } from './fake-bridge'

beforeEach(() => sessionStorage.clear())

const ask = () =>
  makeAsk({
    askId: 'c1',
    questions: [
      { id: 'pkg', question: 'Which one?', options: [{ label: 'pnpm' }, { label: 'npm' }] },
      { id: 'targets', question: 'Targets?', multi_select: true, options: [{ label: 'tests' }, { label: 'docs' }] },
    ],
  })

describe('CardState', () => {
  it('a single-select pick replaces the own words and the other pick; a multi-select toggles', () => {
    const card = new CardState(ask(), new DraftStorage())
    card.setCustom(0, 'bun')
    card.pick(0, 'npm')
    expect(card.questionDraft(0)).toEqual({ selected: ['npm'], custom: '', skipped: false })
    card.setCustom(0, 'bun')
    expect(card.questionDraft(0)).toEqual({ selected: [], custom: 'bun', skipped: false })
    card.pick(1, 'docs')
    card.pick(1, 'tests')
    card.setCustom(1, 'and the changelog')
    card.pick(1, 'docs')
    expect(card.questionDraft(1)).toEqual({ selected: ['tests'], custom: 'and the changelog', skipped: false })
  })

  it('a pick or typed text undoes a skip; blank text does not', () => {
    const card = new CardState(ask(), new DraftStorage())
    expect(card.hasDraft).toBe(false)
    card.toggleSkip(1)
    expect(card.hasDraft).toBe(true)
    card.setCustom(1, '   ')
    expect(card.questionDraft(1).skipped).toBe(true)
    card.setCustom(1, 'x')
    expect(card.questionDraft(1).skipped).toBe(false)
    card.toggleSkip(0)
    card.pick(0, 'pnpm')
    expect(card.questionDraft(0)).toEqual({ selected: ['pnpm'], custom: '', skipped: false })
  })

  it('mirrors every edit to storage, starts from the stored draft, and forgets it on request', () => {
    const storage = new DraftStorage(sessionStorage)
    const first = new CardState(ask(), storage)
    first.pick(1, 'docs')
    expect(JSON.parse(sessionStorage.getItem(draftKey('c1'))!)).toEqual([
      { selected: [], custom: '', skipped: false },
      { selected: ['docs'], custom: '', skipped: false },
    ])
    const second = new CardState(ask(), storage)
    expect(second.questionDraft(1).selected).toEqual(['docs'])
    second.forgetDraft()
    expect(sessionStorage.getItem(draftKey('c1'))).toBeNull()
  })

  it('keeps drafts in memory when storage throws', () => {
    const broken = {
      get length(): number {
        throw new Error('denied')
      },
      key: () => null,
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('quota')
      },
      removeItem: () => {
        throw new Error('denied')
      },
      clear: () => undefined,
    } satisfies Storage
    const storage = new DraftStorage(broken)
    const card = new CardState(ask(), storage)
    card.setCustom(0, 'bun')
    expect(card.questionDraft(0).custom).toBe('bun')
    expect(() => card.forgetDraft()).not.toThrow()
    expect(() => storage.prune(new Set())).not.toThrow()
  })

  it('checks its draft once per edit; attemptSend hands out the checked answers or marks the card attempted', () => {
    const card = new CardState(ask(), new DraftStorage())
    expect(card.check.unanswered).toEqual([0, 1])
    expect(card.attemptSend()).toBeUndefined()
    expect(card.attempted).toBe(true)
    card.pick(0, 'npm')
    card.toggleSkip(1)
    expect(card.check.unanswered).toEqual([])
    const answers = card.attemptSend()
    expect(answers).toEqual([
      { id: 'pkg', selected: ['npm'] },
      { id: 'targets', selected: [] },
    ])
    expect(answers).toBe(card.check.ready)
    expect(card.check).toBe(card.check)
  })

  it('refuses to send while locked, without marking the card attempted', () => {
    const card = new CardState(ask(), new DraftStorage())
    card.sending = true
    expect(card.attemptSend()).toBeUndefined()
    expect(card.attempted).toBe(false)
  })

  it('is locked while sending and once settled', () => {
    const card = new CardState(ask(), new DraftStorage())
    expect(card.locked).toBe(false)
    card.sending = true
    expect(card.locked).toBe(true)
    card.sending = false
    card.settlement = 'aborted'
    expect(card.locked).toBe(true)
  })
})

describe('DraftStorage.prune', () => {
  it('drops the stored drafts of asks not kept, and nothing else', () => {
    sessionStorage.setItem(draftKey('keep'), '[]')
    sessionStorage.setItem(draftKey('drop-1'), '[]')
    sessionStorage.setItem(draftKey('drop-2'), '[]')
    sessionStorage.setItem('ask-user.lang', 'zh')
    new DraftStorage(sessionStorage).prune(new Set(['keep']))
    expect(Object.keys(sessionStorage).sort()).toEqual(['ask-user.draft.keep', 'ask-user.lang'])
  })
})
