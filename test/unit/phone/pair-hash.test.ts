// The entry takes a pairing link's fragment out of the URL before anything else, without the pairing
// code (pair-hash.ts); the pairing screen parses what it took later (pair-fragment.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest'

/** A page's location and history as the two modules read them, recording each replaceState. */
function page(hash: string) {
  const replaced: string[] = []
  return {
    location: { hash, pathname: '/app/', search: '?v=1' },
    history: { state: null, replaceState: (_state: unknown, _unused: string, url: string) => void replaced.push(url) },
    replaced,
  }
}

// Both modules remember the first call of a page load: each test is a fresh load.
beforeEach(() => vi.resetModules())

describe('taking the pairing fragment', () => {
  it('removes a #pair= fragment from the address once and returns it unparsed', async () => {
    const { takePairHash } = await import('../../../phone/src/pairing/pair-hash')
    const opened = page('#pair=not-an-offer')
    expect(takePairHash(opened.location, opened.history)).toBe('#pair=not-an-offer')
    expect(opened.replaced).toEqual(['/app/?v=1'])
    expect(takePairHash(opened.location, opened.history)).toBe('#pair=not-an-offer')
    expect(opened.replaced).toHaveLength(1)
  })

  it('leaves any other address alone', async () => {
    const { takePairHash } = await import('../../../phone/src/pairing/pair-hash')
    const opened = page('#elsewhere')
    expect(takePairHash(opened.location, opened.history)).toBeNull()
    expect(opened.replaced).toEqual([])
  })

  it('the pairing screen parses the fragment the entry took (gone from the address by then)', async () => {
    const { takePairHash } = await import('../../../phone/src/pairing/pair-hash')
    const { takePairFragment } = await import('../../../phone/src/pairing/pair-fragment')
    const opened = page('#pair=not-an-offer')
    takePairHash(opened.location, opened.history)
    const later = page('')
    const taken = takePairFragment(later.location, later.history)
    expect(taken.kind).toBe('refused')
    expect(taken.kind === 'refused' && taken.error.code).toBe('RELAY_PAIR_LINE_INVALID')
    expect(later.replaced).toEqual([])
  })
})
