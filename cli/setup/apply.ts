import { childEnvironment } from '../child-env'
import { spawn } from 'node:child_process'
import { hookGroup, type SetupPlan, type SetupStep } from '../../integrations/setup-steps'
import { quote } from '../../integrations/command-line'
import { findOnPath, keepCopy, readText, resolveFile, writeText, type SetupContext } from './client-files'
import { addItem, deleteAt, getAt, parseJsonc, removeItem, sameJson, setAt, type JsonObject } from './json-edit'
import { readTomlKey, removeTomlKeys, setTomlKeys } from './toml-edit'
import { addHookGroup, removeHookGroups } from './hook-edit'
import { removeFile } from '../../core/private-files'

/** A client command that could not run or failed; the message names it and what it printed. */
export class SetupError extends Error {
  override readonly name = 'SetupError'
}

/** How long a client's own `mcp add`/`mcp remove` may take before it counts as failed. */
const CLIENT_COMMAND_TIMEOUT_MS = 60_000

/**
 * Carries out `plan` (or, with `remove`, undoes it) and returns one line per change made, or a single
 * "nothing to change" line. Steps that are already in place are skipped, so running it twice changes
 * nothing the second time. Throws {@link SetupError} when a client command is missing or fails, and
 * `ConfigFileError` when a file cannot be edited safely (it is then left as it was).
 */
export async function applyPlan(plan: SetupPlan, mode: 'add' | 'remove', ctx: SetupContext): Promise<string[]> {
  const changes: string[] = []
  const steps = mode === 'add' ? plan.steps : [...plan.steps].reverse()
  for (const step of steps) changes.push(...(mode === 'add' ? await addStep(step, ctx) : await removeStep(step, ctx)))
  return changes.length > 0
    ? changes
    : [mode === 'add' ? 'already set up: nothing to change' : 'not set up: nothing to remove']
}

async function addStep(step: SetupStep, ctx: SetupContext): Promise<string[]> {
  switch (step.kind) {
    case 'run': {
      const present = await entryState(step, ctx)
      if (present === 'same') return []
      const out: string[] = []
      if (present === 'different') out.push(await runClient(step.remove, ctx))
      out.push(await runClient(step.argv, ctx))
      if ((await entryState(step, ctx)) !== 'same') {
        throw new SetupError(
          `\`${shown(step.argv)}\` ran but ${resolveFile(step.entry.file, ctx.env)} does not hold the entry it should have written`,
        )
      }
      return out
    }
    case 'json':
      return editJson(step.file, ctx, (root) => setAt(root, step.path, step.value), `set ${step.path.join('.')}`)
    case 'json-item':
      return editJson(
        step.file,
        ctx,
        (root) => addItem(root, step.path, step.item),
        `added ${JSON.stringify(step.item)} to ${step.path.join('.')}`,
      )
    case 'toml':
      return editText(
        step.file,
        ctx,
        (text) => setTomlKeys(text, step.table, step.keys),
        `set ${Object.keys(step.keys).join(', ')} in [${step.table}]`,
      )
    case 'hook':
      return editJson(
        step.file,
        ctx,
        (root) => addHookGroup(root, step.event, hookGroup(step), harnessOf(step)),
        `set the ask-user hook in hooks.${step.event}`,
      )
    case 'file':
      return editText(step.file, ctx, () => step.text, 'wrote the ask-user plugin')
  }
}

async function removeStep(step: SetupStep, ctx: SetupContext): Promise<string[]> {
  switch (step.kind) {
    case 'run':
      return (await entryState(step, ctx)) === 'absent' ? [] : [await runClient(step.remove, ctx)]
    case 'json':
      return editJson(step.file, ctx, (root) => deleteAt(root, step.path), `removed ${step.path.join('.')}`)
    case 'json-item':
      return editJson(
        step.file,
        ctx,
        (root) => removeItem(root, step.path, step.item),
        `removed ${JSON.stringify(step.item)} from ${step.path.join('.')}`,
      )
    case 'toml':
      return editText(
        step.file,
        ctx,
        (text) => removeTomlKeys(text, step.table, Object.keys(step.keys)),
        `removed [${step.table}]`,
      )
    case 'hook':
      return editJson(
        step.file,
        ctx,
        (root) => removeHookGroups(root, step.event, harnessOf(step)),
        `removed the ask-user hook from hooks.${step.event}`,
      )
    case 'file': {
      const path = resolveFile(step.file, ctx.env)
      if ((await readText(path)) === '') return []
      await removeFile(path)
      return [`${path}: removed the ask-user plugin`]
    }
  }
}

/** The harness a hook step's command names (`… hook <harness>`); an `mcp_tool` handler is Claude Code's, the one harness with those. */
function harnessOf(step: Extract<SetupStep, { kind: 'hook' }>): string {
  if (step.handler.type === 'mcp_tool') return 'claude-code'
  return step.handler.command.trimEnd().split(' ').at(-1) ?? ''
}

/** Whether the client's file already holds the entry its command writes: the same, another, or none. */
async function entryState(
  step: Extract<SetupStep, { kind: 'run' }>,
  ctx: SetupContext,
): Promise<'same' | 'different' | 'absent'> {
  const text = await readText(resolveFile(step.entry.file, ctx.env))
  if (step.entry.file.endsWith('.toml')) return tomlEntryState(text, step.entry.path.join('.'), step.entry.value)
  const current = getAt(parseJsonc(text).value, step.entry.path)
  if (current === undefined) return 'absent'
  // Clients add keys of their own (Claude's type, Gemini's defaults): only ours must match.
  const ours =
    current !== null &&
    typeof current === 'object' &&
    Object.entries(step.entry.value).every(([key, value]) => sameJson((current as JsonObject)[key], value))
  return ours ? 'same' : 'different'
}

function tomlEntryState(text: string, table: string, value: Record<string, unknown>): 'same' | 'different' | 'absent' {
  const command = readTomlKey(text, table, 'command')
  if (command === undefined) return 'absent'
  const env = (value['env'] ?? {}) as Record<string, string>
  const same =
    command === JSON.stringify(value['command']) &&
    readTomlKey(text, table, 'args') ===
      `[${((value['args'] ?? []) as string[]).map((arg) => JSON.stringify(arg)).join(', ')}]` &&
    Object.entries(env).every(([key, v]) => readTomlKey(text, `${table}.env`, key) === JSON.stringify(v))
  return same ? 'same' : 'different'
}

async function editJson(
  file: string,
  ctx: SetupContext,
  edit: (root: JsonObject) => boolean,
  what: string,
): Promise<string[]> {
  const path = resolveFile(file, ctx.env)
  const text = await readText(path)
  const { value, hadComments } = parseJsonc(text)
  if (!edit(value)) return []
  const kept = hadComments ? await keepCopy(path) : undefined
  await writeText(path, `${JSON.stringify(value, null, 2)}\n`)
  return [`${path}: ${what}${kept ? ` (its comments are not kept; the file as it was is ${kept})` : ''}`]
}

async function editText(
  file: string,
  ctx: SetupContext,
  edit: (text: string) => string,
  what: string,
): Promise<string[]> {
  const path = resolveFile(file, ctx.env)
  const text = await readText(path)
  const next = edit(text)
  if (next === text) return []
  await writeText(path, next.endsWith('\n') ? next : `${next}\n`)
  return [`${path}: ${what}`]
}

function shown(argv: readonly string[]): string {
  return argv.map((arg) => quote(arg, process.platform === 'win32' ? 'win32' : 'linux')).join(' ')
}

/** Runs a client's own command (found on PATH) to its end; returns the "ran: …" line. */
async function runClient(argv: readonly string[], ctx: SetupContext): Promise<string> {
  const [name, ...args] = argv as [string, ...string[]]
  const command = findOnPath(name, ctx.env)
  if (command === undefined)
    throw new SetupError(
      `${name} is not on PATH; install it first, or run \`${ctx.printCommand}\` for the lines to apply by hand`,
    )
  const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ctx.cwd,
      env: childEnvironment(ctx.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CLIENT_COMMAND_TIMEOUT_MS,
      // .cmd launchers (npm's on Windows) run only through the shell.
      shell: /\.(cmd|bat)$/i.test(command),
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output }))
  }).catch((error: unknown) => {
    throw new SetupError(`\`${shown(argv)}\` could not run: ${error instanceof Error ? error.message : String(error)}`)
  })
  if (result.code !== 0)
    throw new SetupError(`\`${shown(argv)}\` failed (exit ${result.code ?? 'by signal'}): ${result.output.trim()}`)
  return `ran: ${shown(argv)}`
}
