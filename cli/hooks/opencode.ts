import { z } from 'zod'
import type { Answer } from '../../shared/answer'
import type { Question } from '../../shared/tool-input'
import type { ApprovalAction, ApprovalDecision } from './contract'
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

function action(permission: string, patterns: readonly string[], metadata: Record<string, unknown>, cwd: string | undefined): ApprovalAction {
  if (permission === 'bash') {
    const command = str(metadata['command']) ?? patterns.join('\n')
    return { kind: 'command', command, ...(str(metadata['description']) ? { description: str(metadata['description'])! } : {}), ...(cwd ? { cwd } : {}) }
  }
  if (permission === 'edit') {
    const path = str(metadata['filepath']) ?? patterns[0] ?? '(unknown file)'
    const diff = str(metadata['diff'])
    return { kind: 'file', path, operation: 'edit', ...(diff ? { diff } : {}) }
  }
  if (permission === 'webfetch') {
    const url = str(metadata['url']) ?? patterns[0]
    if (url) return { kind: 'url', url }
  }
  return { kind: 'tool', input: prettyInput({ permission, patterns, metadata }) }
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
          action: action(p.permission, p.patterns, p.metadata ?? {}, e.directory),
          ...(always.length > 0 ? { always: { label: `Always allow ${always.join(', ')} (${p.permission}) in this project` } } : {}),
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
