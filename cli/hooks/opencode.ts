import { z } from 'zod'
import type { Answer } from '../../shared/answer'
import type { Question } from '../../shared/tool-input'
import type { ApprovalAction, ApprovalDecision } from './contract'
import { leftoverFields } from '../../shared/approval-extra'
import { notesOf, type InputNotes } from './input-notes'
import { HookInputError, prettyInput, sessionTitle, type HookWork } from './plan'

/** opencode's `permission.asked` event (its `PermissionRequest`), as the plugin passes it on. */
const PermissionAskedSchema = z.looseObject({
  type: z.literal('permission.asked'),
  directory: z.string().optional(),
  properties: z.looseObject({
    id: z.string(),
    sessionID: z.string(),
    permission: z.string(),
    patterns: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).optional(),
    always: z.array(z.string()).optional(),
  }),
})
/** opencode's `question.asked` event (its `QuestionRequest`). */
const QuestionAskedSchema = z.looseObject({
  type: z.literal('question.asked'),
  directory: z.string().optional(),
  properties: z.looseObject({
    id: z.string(),
    sessionID: z.string(),
    questions: z
      .array(
        z.looseObject({
          question: z.string(),
          header: z.string().optional(),
          options: z.array(z.looseObject({ label: z.string(), description: z.string().optional() })),
          multiple: z.boolean().optional(),
        }),
      )
      .min(1),
  }),
})
const EventSchema = z.discriminatedUnion('type', [PermissionAskedSchema, QuestionAskedSchema])

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/**
 * bash → the command (`metadata.command`, else the patterns); edit → the file (`metadata.filepath`,
 * else the first pattern) with `metadata.diff`; webfetch → `metadata.url` (else the first pattern).
 * The other metadata fields go to `extra`, and so do the patterns whenever the card does not already
 * show exactly them (they are what opencode's rules match). Any other permission is shown whole.
 */
function approval(permission: string, patterns: readonly string[], metadata: Record<string, unknown>, cwd: string | undefined): { action: ApprovalAction } & InputNotes {
  const withPatterns = (shownKeys: readonly string[], shownText: readonly string[]): InputNotes => {
    const fields = leftoverFields(metadata, shownKeys)
    const same = patterns.length === shownText.length && patterns.every((pattern, index) => pattern === shownText[index])
    if (!same && patterns.length > 0) fields['patterns' in fields ? 'permission patterns' : 'patterns'] = [...patterns]
    return notesOf(fields, [])
  }
  if (permission === 'bash') {
    const command = str(metadata['command']) ?? patterns.join('\n')
    const description = str(metadata['description'])
    const action: ApprovalAction = { kind: 'command', command, ...(description ? { description } : {}), ...(cwd ? { cwd } : {}) }
    return { action, ...withPatterns(['command', 'description'], str(metadata['command']) ? [command] : patterns) }
  }
  if (permission === 'edit') {
    const path = str(metadata['filepath']) ?? patterns[0] ?? '(unknown file)'
    const diff = str(metadata['diff'])
    return { action: { kind: 'file', path, operation: 'edit', ...(diff ? { diff } : {}) }, ...withPatterns(['filepath', 'diff'], [path]) }
  }
  if (permission === 'webfetch') {
    const url = str(metadata['url']) ?? patterns[0]
    if (url) return { action: { kind: 'url', url }, ...withPatterns(['url'], [url]) }
  }
  return { action: { kind: 'tool', input: prettyInput({ permission, patterns, metadata }) } }
}

/** The plugin's reply for a permission: `{"reply":"once"|"always"|"reject","message"?}`. */
function permissionOutput(decision: ApprovalDecision): string {
  if (decision.behavior === 'allow') return JSON.stringify({ reply: decision.always ? 'always' : 'once' })
  const message = decision.message?.trim()
  return JSON.stringify(message ? { reply: 'reject', message } : { reply: 'reject' })
}

/**
 * Maps an opencode server event, as our plugin hands it over on stdin, to the companion's work:
 * `permission.asked` → an approval (Always allow offered when the request names `always` patterns);
 * `question.asked` → a question ask whose answers go back as `{"answers":[[labels…], …]}` (opencode's
 * `QuestionAnswer` per question: the picked labels, then words of the person's own).
 */
export function opencodeHook(event: unknown): HookWork {
  const parsed = EventSchema.safeParse(event)
  if (!parsed.success) throw new HookInputError(`not an opencode permission.asked or question.asked event: ${parsed.error.issues[0]?.message ?? 'wrong shape'}`)
  const e = parsed.data
  const agent = { name: 'opencode', ...(e.directory ? { cwd: e.directory } : {}), ...titled(sessionTitle(e.properties.sessionID.replace(/^ses_/, ''))) }
  if (e.type === 'permission.asked') {
    const p = e.properties
    const always = p.always ?? []
    return {
      agent,
      plan: {
        kind: 'approve',
        request: {
          tool: p.permission,
          harness: 'opencode',
          ...(always.length > 0 ? { always: { label: `Always allow ${always.join(', ')} (${p.permission}) in this project` } } : {}),
          ...approval(p.permission, p.patterns, p.metadata ?? {}, e.directory),
        },
        output: permissionOutput,
      },
    }
  }
  const questions: Question[] = e.properties.questions.map((q, index) => {
    const out: Question = { id: `q${index + 1}`, question: q.question }
    if (q.header) out.header = q.header
    out.options = q.options.map((o) => (o.description !== undefined ? { label: o.label, description: o.description } : { label: o.label }))
    if (q.multiple) out.multi_select = true
    return out
  })
  return {
    agent,
    plan: {
      kind: 'ask',
      questions,
      output: (answers: Answer[]) =>
        JSON.stringify({ answers: questions.map((q) => answers.find((a) => a.id === q.id)).map((a) => (a ? [...a.selected, ...(a.custom !== undefined ? [a.custom] : [])] : [])) }),
    },
  }
}

function titled(title: string | undefined): { title?: string } {
  return title === undefined ? {} : { title }
}
