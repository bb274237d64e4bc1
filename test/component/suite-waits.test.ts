// The component tests' async queries wait as long as the suite's other waits (a busy machine can spend
// Testing Library's default 1 s on one render): set once, in test/helpers/component-setup.ts.
import { getConfig } from '@testing-library/svelte'
import { expect, it } from 'vitest'
import { WAIT_MS } from '../helpers/waits'

it('waitFor and findBy… give up after WAIT_MS, not after 1 s', () => {
  expect(getConfig().asyncUtilTimeout).toBe(WAIT_MS)
})
