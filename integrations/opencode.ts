// opencode: MCP set-up in its opencode.jsonc (`opencode mcp add` cannot set a timeout); hooks through
// our plugin (integrations/opencode/plugin.js), which hands `permission.asked` and `question.asked`
// server events to `ask-user hook opencode`. No askpass setting.
import { z } from 'zod'
import type { Answer } from '../shared/answer'
import { leftoverFields } from '../shared/approval-extra'
import type { ApprovalAction, ApprovalDecision } from '../shared/approval'
import type { Harness } from './harness'
import { hookAgent, parseEvent, prettyInput, toToolQuestions } from './hook-kit'
import type { HookWork } from './hook-work'
import { notesOf, type InputNotes } from './input-notes'
import PLUGIN_SOURCE from './opencode/plugin.js?raw'
import { mcpLaunch, SERVER_NAME, TOOL_TIMEOUT_SECONDS, type SetupPlan } from './setup-steps'

const NAME = 'opencode'
const CONFIG = '~/.config/opencode/opencode.jsonc'

/** Where `--hooks` writes the plugin: opencode's global plugin folder. */
export const OPENCODE_PLUGIN_FILE = '~/.config/opencode/plugin/ask-user.js'

/** The plugin's line that names the command it runs; the set-up puts this install's command there. */
const COMMAND_LINE = /^const COMMAND = .*$/m

/**
 * The plugin file as `--hooks` writes it: integrations/opencode/plugin.js, a linted source file taken
 * into the bundle as text, with `command` (this install's `ask-user hook opencode` line) in its
 * COMMAND constant. Throws if the source has lost that line, rather than write a plugin that runs
 * the wrong command.
 */
export function opencodePlugin(command: string): string {
  if (!COMMAND_LINE.test(PLUGIN_SOURCE))
    throw new Error('integrations/opencode/plugin.js has no `const COMMAND = …` line')
  return PLUGIN_SOURCE.replace(COMMAND_LINE, () => `const COMMAND = ${JSON.stringify(command)}`)
}

/** opencode's `permission.asked` event (its `PermissionRequest`), as the plugin passes it on. */
const PermissionAskedSchema = z.looseObject({
  type: z.literal('permission.asked'),
  directory: z.string().optional(),
  properties: z.looseObject({
    id: z.string(),
    sessionID: z.string(),
    permission: z.string(),
    patterns: z.array(z.string()),
    // Kept as parsed (not rebuilt key by key as z.record does), so that no key is lost: a `__proto__`
    // from JSON is an own field there, and must reach the card like any other.
    metadata: z
      .custom<Record<string, unknown>>(
        (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
        'metadata must be an object',
      )
      .optional(),
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
function approval(
  permission: string,
  patterns: readonly string[],
  metadata: Record<string, unknown>,
  cwd: string | undefined,
): { action: ApprovalAction } & InputNotes {
  const withPatterns = (shownKeys: readonly string[], shownText: readonly string[]): InputNotes => {
    const fields = leftoverFields(metadata, shownKeys)
    const same =
      patterns.length === shownText.length && patterns.every((pattern, index) => pattern === shownText[index])
    if (!same && patterns.length > 0) fields['patterns' in fields ? 'permission patterns' : 'patterns'] = [...patterns]
    return notesOf(fields, [])
  }
  if (permission === 'bash') {
    const command = str(metadata['command']) ?? patterns.join('\n')
    const description = str(metadata['description'])
    const action: ApprovalAction = {
      kind: 'command',
      command,
      ...(description ? { description } : {}),
      ...(cwd ? { cwd } : {}),
    }
    return { action, ...withPatterns(['command', 'description'], str(metadata['command']) ? [command] : patterns) }
  }
  if (permission === 'edit') {
    const path = str(metadata['filepath']) ?? patterns[0] ?? '(unknown file)'
    const diff = str(metadata['diff'])
    return {
      action: { kind: 'file', path, operation: 'edit', ...(diff ? { diff } : {}) },
      ...withPatterns(['filepath', 'diff'], [path]),
    }
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
 * Throws HookInputError for an event of the wrong shape.
 */
function opencodeEvent(event: unknown): HookWork {
  const e = parseEvent(EventSchema, event, 'not an opencode permission.asked or question.asked event')
  const agent = hookAgent(NAME, e.directory, e.properties.sessionID.replace(/^ses_/, ''))
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
          ...(always.length > 0
            ? { always: { label: `Always allow ${always.join(', ')} (${p.permission}) in this project` } }
            : {}),
          ...approval(p.permission, p.patterns, p.metadata ?? {}, e.directory),
        },
        output: permissionOutput,
      },
    }
  }
  const questions = toToolQuestions(e.properties.questions.map((q) => ({ ...q, multi: q.multiple })))
  return {
    agent,
    plan: {
      kind: 'ask',
      questions,
      output: (answers: Answer[]) =>
        JSON.stringify({
          answers: questions
            .map((q) => answers.find((a) => a.id === q.id))
            .map((a) => (a ? [...a.selected, ...(a.custom !== undefined ? [a.custom] : [])] : [])),
        }),
    },
  }
}

/** opencode, as `ask-user setup`, `ask-user hook` and the Connect panel know it. */
export const opencode = {
  id: 'opencode',
  name: NAME,
  connectNote: 'noteOpencode',
  published: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  mcp: (info): SetupPlan => {
    // `opencode mcp add` cannot set a timeout (a tool call would be cut after the SDK's 60 s).
    const { argv, env } = mcpLaunch(info)
    return {
      steps: [
        {
          kind: 'json',
          file: CONFIG,
          path: ['mcp', SERVER_NAME],
          value: {
            type: 'local',
            command: argv,
            environment: env,
            enabled: true,
            timeout: TOOL_TIMEOUT_SECONDS * 1000,
          },
        },
        { kind: 'json', file: CONFIG, path: ['permission', `${SERVER_NAME}_*`], value: 'allow' },
      ],
      notes: [],
    }
  },
  hooks: {
    steps: (command) => [{ kind: 'file', file: OPENCODE_PLUGIN_FILE, text: opencodePlugin(command) }],
    notes: ['Restart opencode to load the plugin.'],
    map: (event) => opencodeEvent(event),
  },
} as const satisfies Harness
