// Pairing a phone is done only in the desktop window (its own IPC channels): the same frames over the
// UI channel, as a served page or a script with the window credential would send them, are refused
// with FORBIDDEN, and nothing about a pairing comes back.
import { afterEach, describe, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'

let t: TestCompanion
afterEach(() => t.cleanup())

describe('phone pairing over the UI channel', () => {
  it('refuses starting a pairing and confirming one with FORBIDDEN', async () => {
    t = await startTestCompanion()
    const window = await connectUi(t.companion)
    const frames = [
      { type: 'phone/pair-start' },
      { type: 'phone/pair-decide', pairId: 'pairpairpairpairpair01', confirm: true },
    ]
    for (const frame of frames) {
      window.send(frame)
      const reply = await window.nextFrame((f) => f.type === 'rejected')
      expect(reply).toMatchObject({ type: 'rejected', code: 'FORBIDDEN' })
      expect((reply as { reason: string }).reason).toBe(
        `${frame.type} changes who may answer: it is accepted only from the desktop app's own window or from \`ask-user\` in a terminal, never over the UI channel`,
      )
    }
    await window.close()
  })
})
