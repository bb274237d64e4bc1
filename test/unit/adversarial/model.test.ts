// Model-based test of the core (fast-check commands under its scheduler): connect, hello, ask, cancel,
// answer and dismiss from one or two windows, clean and abrupt closes, window reloads, bad frames and
// raced settlements. After every step the registry, each window's list and each agent's outcomes equal
// the model: exactly one outcome per ask. Seeded, so every run tries the same sequences.
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { commandsArbitrary } from './model/commands'
import { setup } from './model/system'

const RUNS = Number(process.env.MODEL_RUNS ?? 1000)
const SEED = 20_261_203

it(`agrees with the model over ${RUNS} seeded command sequences (up to 60 steps each)`, async () => {
  const steps = { count: 0 }
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), commandsArbitrary(), async (s, cmds) => {
      const world = await setup(s, steps)
      try {
        await fc.asyncModelRun(() => world, cmds)
      } finally {
        world.real.core.shutdown()
      }
    }),
    {
      numRuns: RUNS,
      seed: SEED,
      endOnFailure: true,
      interruptAfterTimeLimit: Number(process.env.MODEL_LIMIT ?? 50_000),
    },
  )
  console.log(`model-based: ${RUNS} sequences, ${steps.count} steps checked`)
  expect(steps.count).toBeGreaterThan(RUNS * 10)
}, 60_000)
