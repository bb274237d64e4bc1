// The envelope checks on the path of every agent frame, by hand where zod could not refuse, with zod
// (AskEnvelopeSchema, WireAskIdSchema: the one source of the rules) for everything else.
import { AskEnvelopeSchema, WireAskIdSchema } from '../shared/wire'
import type { invalidFrameMessage } from '../shared/frame-issues'

/**
 * The frame's `id` when it is a valid wire id (`WireAskIdSchema`), else undefined. The common case is
 * checked by hand (a string of 1 to 200 characters is all the schema asks); anything else goes to zod.
 */
export function wireId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length >= 1 && value.length <= 200) return value
  const checked = WireAskIdSchema.safeParse(value)
  return checked.success ? checked.data : undefined
}

/**
 * `AskEnvelopeSchema` on the path of every ask: when the id is valid and the title absent or a string,
 * the schema cannot refuse the frame (its `type` is already "ask"), so zod runs only to explain a refusal.
 */
export function askEnvelope(
  raw: Record<string, unknown>,
  id: string | undefined,
): { ok: true; id: string; title: string | undefined } | { ok: false; issues: Parameters<typeof invalidFrameMessage>[2] } {
  const title = raw['title']
  if (id !== undefined && (title === undefined || typeof title === 'string')) return { ok: true, id, title }
  const parsed = AskEnvelopeSchema.safeParse(raw)
  return parsed.success ? { ok: true, id: parsed.data.id, title: parsed.data.title } : { ok: false, issues: parsed.error.issues }
}
