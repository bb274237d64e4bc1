import { z } from 'zod'
import { replacementDiff, replacementsDiff } from '../diff'
import { prettyInput } from '../hook-kit'
import { inputNotes, isOn, notesOf, warning, type InputNotes } from '../input-notes'
import { leftoverFields } from '../../shared/approval-extra'
import type { ApprovalAction, ApprovalWarning } from '../../shared/approval'

/**
 * One entry of Claude Code's `permission_suggestions` (its `PermissionUpdate`): kept verbatim, since
 * "Allow always" hands the suggestions back unchanged as `updatedPermissions`. Only the fields the
 * label needs are read.
 */
export const PermissionSuggestionSchema = z.looseObject({
  type: z.string(),
  destination: z.string().optional(),
  behavior: z.string().optional(),
  mode: z.string().optional(),
  rules: z.array(z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() })).optional(),
  directories: z.array(z.string()).optional(),
})
export type PermissionSuggestion = z.infer<typeof PermissionSuggestionSchema>

const WHERE: Record<string, string> = {
  localSettings: 'in this project',
  projectSettings: 'in this project (shared settings)',
  userSettings: 'in every project',
  session: 'for this session',
  cliArg: 'for this run',
}

function describeSuggestion(s: PermissionSuggestion): string {
  const where = s.destination && WHERE[s.destination] ? ` ${WHERE[s.destination]}` : ''
  if ((s.type === 'addRules' || s.type === 'replaceRules') && s.rules) {
    const verb = s.behavior === 'deny' ? 'Always deny' : s.behavior === 'ask' ? 'Always ask for' : 'Always allow'
    const rules = s.rules.map((rule) => (rule.ruleContent ? `${rule.toolName}(${rule.ruleContent})` : rule.toolName))
    return `${verb} ${rules.join(', ')}${where}`
  }
  if (s.type === 'setMode' && s.mode)
    return s.mode === 'acceptEdits' ? `Allow all edits${where}` : `Switch to ${s.mode} mode${where}`
  if (s.type === 'addDirectories' && s.directories) return `Always allow access to ${s.directories.join(', ')}${where}`
  return `Apply Claude's suggestion "${s.type}"${where}`
}

/** The "Always allow" label for Claude's suggestions (all of them apply, as in Claude's own dialog). */
export function alwaysLabel(suggestions: readonly PermissionSuggestion[]): string {
  return suggestions.map(describeSuggestion).join('; ')
}

const text = z.string()
const BashInput = z.looseObject({ command: text, description: text.optional() })
const EditInput = z.looseObject({ file_path: text, old_string: text, new_string: text })
const MultiEditInput = z.looseObject({
  file_path: text,
  edits: z.array(z.looseObject({ old_string: text, new_string: text })),
})
const WriteInput = z.looseObject({ file_path: text, content: text })
const NotebookInput = z.looseObject({ notebook_path: text, new_source: text.optional(), edit_mode: text.optional() })
const UrlInput = z.looseObject({ url: text })
const PlanInput = z.looseObject({ plan: text })

/** An approval's action with the input's other fields and warnings (see {@link inputNotes}). */
export type NotedAction = { action: ApprovalAction } & InputNotes

function bashWarnings(input: Record<string, unknown>): ApprovalWarning[] {
  return [
    ...(isOn(input['dangerouslyDisableSandbox'])
      ? [warning('OUTSIDE_SANDBOX', "Runs outside Claude Code's sandbox (dangerouslyDisableSandbox).")]
      : []),
    ...(isOn(input['run_in_background'])
      ? [warning('RUNS_IN_BACKGROUND', 'Keeps running in the background after it starts (run_in_background).')]
      : []),
  ]
}

const replaceAll = (edit: Record<string, unknown>, which: string): ApprovalWarning[] =>
  isOn(edit['replace_all'])
    ? [warning('REPLACES_EVERY_MATCH', `${which} replaces every match in the file, not just one (replace_all).`)]
    : []

/**
 * MultiEdit: the top-level fields besides `file_path` and `edits`, and, when any edit carries more than
 * its two strings, `edits` as the list of each edit's other fields (by position, `{}` for a plain one).
 */
function multiEditNotes(input: unknown, edits: readonly Record<string, unknown>[]): InputNotes {
  const fields = leftoverFields(input, ['file_path', 'edits'])
  const perEdit = edits.map((edit) => leftoverFields(edit, ['old_string', 'new_string']))
  if (perEdit.some((rest) => Object.keys(rest).length > 0)) fields['edits'] = perEdit
  const warnings = edits.flatMap((edit, index) => replaceAll(edit, `Edit ${index + 1} of ${edits.length}`))
  return notesOf(fields, warnings)
}

/**
 * What a Claude Code tool call will do, from its `tool_name` and `tool_input`: Bash → the command;
 * Edit/MultiEdit → the file with a diff; Write → the file with its content; NotebookEdit → the
 * notebook with the new cell source; WebFetch → the URL; ExitPlanMode → the plan (Markdown; Claude
 * puts the plan file's text in `tool_input.plan`). Anything else, or an input of another shape → the
 * input as pretty JSON. Every field the action does not show goes to `extra` (never dropped), and
 * the flags that widen what is allowed (`dangerouslyDisableSandbox`, `run_in_background`,
 * `replace_all`) become warnings.
 */
export function claudeAction(tool: string, input: unknown, cwd: string | undefined): NotedAction {
  const parse = <T>(schema: z.ZodType<T>): T | undefined => {
    const result = schema.safeParse(input)
    return result.success ? result.data : undefined
  }
  switch (tool) {
    case 'Bash': {
      const bash = parse(BashInput)
      if (!bash) break
      return {
        action: {
          kind: 'command',
          command: bash.command,
          ...(bash.description ? { description: bash.description } : {}),
          ...(cwd ? { cwd } : {}),
        },
        ...inputNotes(input, ['command', 'description'], bashWarnings(bash)),
      }
    }
    case 'Edit': {
      const edit = parse(EditInput)
      if (!edit) break
      return {
        action: {
          kind: 'file',
          path: edit.file_path,
          operation: 'edit',
          diff: replacementDiff(edit.file_path, edit.old_string, edit.new_string),
        },
        ...inputNotes(input, ['file_path', 'old_string', 'new_string'], replaceAll(edit, 'This edit')),
      }
    }
    case 'MultiEdit': {
      const multi = parse(MultiEditInput)
      if (!multi) break
      const edits = multi.edits.map((edit) => ({ old: edit.old_string, updated: edit.new_string }))
      return {
        action: {
          kind: 'file',
          path: multi.file_path,
          operation: 'edit',
          diff: replacementsDiff(multi.file_path, edits),
        },
        ...multiEditNotes(input, multi.edits),
      }
    }
    case 'Write': {
      const write = parse(WriteInput)
      if (!write) break
      return {
        action: { kind: 'file', path: write.file_path, operation: 'write', content: write.content },
        ...inputNotes(input, ['file_path', 'content']),
      }
    }
    case 'NotebookEdit': {
      const notebook = parse(NotebookInput)
      if (!notebook) break
      const operation = notebook.edit_mode === 'delete' ? 'delete' : 'edit'
      // The card says "edit" or "delete": an `insert` mode (or any other) stays in extra, visible.
      const shown = [
        'notebook_path',
        ...(operation !== 'delete' ? ['new_source'] : []),
        ...(notebook.edit_mode === 'delete' || notebook.edit_mode === 'replace' ? ['edit_mode'] : []),
      ]
      return {
        action: {
          kind: 'file',
          path: notebook.notebook_path,
          operation,
          ...(notebook.new_source !== undefined && operation !== 'delete' ? { content: notebook.new_source } : {}),
        },
        ...inputNotes(input, shown),
      }
    }
    case 'WebFetch': {
      const fetch = parse(UrlInput)
      if (!fetch) break
      return { action: { kind: 'url', url: fetch.url }, ...inputNotes(input, ['url']) }
    }
    case 'ExitPlanMode': {
      const plan = parse(PlanInput)
      if (!plan) break
      return { action: { kind: 'plan', plan: plan.plan }, ...inputNotes(input, ['plan']) }
    }
  }
  return { action: { kind: 'tool', input: prettyInput(input) } }
}
