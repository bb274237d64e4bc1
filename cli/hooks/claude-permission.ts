import { z } from 'zod'
import type { ApprovalAction } from './contract'
import { replacementDiff, replacementsDiff } from './diff'
import { prettyInput } from './plan'

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
  if (s.type === 'setMode' && s.mode) return s.mode === 'acceptEdits' ? `Allow all edits${where}` : `Switch to ${s.mode} mode${where}`
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
const MultiEditInput = z.looseObject({ file_path: text, edits: z.array(z.looseObject({ old_string: text, new_string: text })) })
const WriteInput = z.looseObject({ file_path: text, content: text })
const NotebookInput = z.looseObject({ notebook_path: text, new_source: text.optional(), edit_mode: text.optional() })
const UrlInput = z.looseObject({ url: text })
const PlanInput = z.looseObject({ plan: text })

/**
 * What a Claude Code tool call will do, from its `tool_name` and `tool_input`: Bash → the command;
 * Edit/MultiEdit → the file with a diff; Write → the file with its content; NotebookEdit → the
 * notebook with the new cell source; WebFetch → the URL; ExitPlanMode → the plan (Markdown; Claude
 * puts the plan file's text in `tool_input.plan`). Anything else, or an input of another shape → the
 * input as pretty JSON.
 */
export function claudeAction(tool: string, input: unknown, cwd: string | undefined): ApprovalAction {
  const parse = <T>(schema: z.ZodType<T>): T | undefined => {
    const result = schema.safeParse(input)
    return result.success ? result.data : undefined
  }
  switch (tool) {
    case 'Bash': {
      const bash = parse(BashInput)
      if (!bash) break
      return { kind: 'command', command: bash.command, ...(bash.description ? { description: bash.description } : {}), ...(cwd ? { cwd } : {}) }
    }
    case 'Edit': {
      const edit = parse(EditInput)
      if (!edit) break
      return { kind: 'file', path: edit.file_path, operation: 'edit', diff: replacementDiff(edit.file_path, edit.old_string, edit.new_string) }
    }
    case 'MultiEdit': {
      const multi = parse(MultiEditInput)
      if (!multi) break
      const edits = multi.edits.map((edit) => ({ old: edit.old_string, updated: edit.new_string }))
      return { kind: 'file', path: multi.file_path, operation: 'edit', diff: replacementsDiff(multi.file_path, edits) }
    }
    case 'Write': {
      const write = parse(WriteInput)
      if (!write) break
      return { kind: 'file', path: write.file_path, operation: 'write', content: write.content }
    }
    case 'NotebookEdit': {
      const notebook = parse(NotebookInput)
      if (!notebook) break
      const operation = notebook.edit_mode === 'delete' ? 'delete' : 'edit'
      return { kind: 'file', path: notebook.notebook_path, operation, ...(notebook.new_source !== undefined && operation !== 'delete' ? { content: notebook.new_source } : {}) }
    }
    case 'WebFetch': {
      const fetch = parse(UrlInput)
      if (!fetch) break
      return { kind: 'url', url: fetch.url }
    }
    case 'ExitPlanMode': {
      const plan = parse(PlanInput)
      if (!plan) break
      return { kind: 'plan', plan: plan.plan }
    }
  }
  return { kind: 'tool', input: prettyInput(input) }
}
