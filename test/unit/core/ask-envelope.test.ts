// The hand checks in front of zod must decide exactly as the schemas do.
import { describe, expect, it } from 'vitest'
import { askEnvelope, wireId } from '../../../core/ask-envelope'
import { AskEnvelopeSchema, WireAskIdSchema } from '../../../shared/wire'

const ids: unknown[] = ['a', 'x'.repeat(200), 'x'.repeat(201), '', 7, null, undefined, true, {}, ['a'], 'é🚀']
const titles: unknown[] = [undefined, 'T', '', 3, null, { a: 1 }, ['t']]

describe('agent frame envelopes', () => {
  it.each(ids)('wireId(%j) accepts exactly what WireAskIdSchema accepts', (value) => {
    const zod = WireAskIdSchema.safeParse(value)
    expect(wireId(value)).toBe(zod.success ? zod.data : undefined)
  })

  it('askEnvelope decides every id × title as AskEnvelopeSchema does, with the same id and title', () => {
    for (const id of ids) {
      for (const title of titles) {
        const raw: Record<string, unknown> = { type: 'ask', id, questions: [] }
        if (title !== undefined) raw['title'] = title
        const zod = AskEnvelopeSchema.safeParse(raw)
        const ours = askEnvelope(raw, wireId(id))
        expect(ours.ok, JSON.stringify({ id, title })).toBe(zod.success)
        if (ours.ok && zod.success) expect({ id: ours.id, title: ours.title }).toEqual({ id: zod.data.id, title: zod.data.title })
        if (!ours.ok && !zod.success) expect(ours.issues).toEqual(zod.error.issues)
      }
    }
  })
})
