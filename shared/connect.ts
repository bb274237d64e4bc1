import { z } from 'zod'
import { setupPlan, type SetupStep } from './setup-plan'

/** How an agent process on this machine runs `ask-user`: an absolute command and the arguments before the subcommand. */
export const CommandLineSchema = z.object({ command: z.string().min(1), args: z.array(z.string()) })
export type CommandLine = z.infer<typeof CommandLineSchema>

/**
 * What a window needs to show "Connect an agent": the `ask-user` of this install, the environment an
 * agent must pass on (the companion's `ASK_USER_HOME`), and the OS (for quoting and file paths).
 */
export const ConnectInfoSchema = z.object({
  commandLine: CommandLineSchema,
  env: z.record(z.string(), z.string()),
  platform: z.enum(['darwin', 'linux', 'win32', 'other']),
})
export type ConnectInfo = z.infer<typeof ConnectInfoSchema>

/** The harnesses the panel covers, in the order it lists them. */
export const HARNESSES = ['claude-code', 'codex', 'gemini', 'qwen', 'opencode', 'cursor', 'shell'] as const
export type HarnessId = (typeof HARNESSES)[number]

/** One copyable block: a command to run, a snippet to merge into a config file, or a whole file (`file`). */
export interface ConnectBlock {
  kind: 'command' | 'json' | 'toml' | 'file'
  /** The file a snippet goes into (with `~` for the home folder); absent for a command. */
  file?: string
  text: string
}

export { SERVER_NAME, TOOL_TIMEOUT_SECONDS } from './setup-plan'

/**
 * The exact set-up blocks for one harness on this machine. For an MCP client: first the one line
 * `ask-user setup <client>` (this install's absolute command, with the companion's environment),
 * then what that line does, step for step, from the same {@link setupPlan}: the client's own
 * command or the snippet merged into its file, with paths, environment and timeouts filled in.
 * For `shell`: an `ask-user ask` line.
 */
export function connectBlocks(harness: HarnessId, info: ConnectInfo): ConnectBlock[] {
  const q = (value: string): string => quote(value, info.platform)
  const entries = Object.entries(info.env)
  // The companion's environment goes with the command: POSIX shells take it in front, cmd.exe sets it first.
  const withEnv = (command: string): string =>
    info.platform === 'win32'
      ? [...entries.map(([key, value]) => `set "${key}=${value}"`), command].join(' && ')
      : [...entries.map(([key, value]) => q(`${key}=${value}`)), command].join(' ')
  const askUser = [info.commandLine.command, ...info.commandLine.args].map(q).join(' ')
  if (harness === 'shell') return [{ kind: 'command', text: withEnv(`${askUser} ask --question "Deploy now?" --option Yes --option No`) }]
  const setup: ConnectBlock = { kind: 'command', text: withEnv(`${askUser} setup ${harness}`) }
  return [setup, ...setupPlan(harness, info).steps.map((step) => blockOf(step, q))]
}

function blockOf(step: SetupStep, q: (value: string) => string): ConnectBlock {
  switch (step.kind) {
    case 'run':
      return { kind: 'command', text: step.argv.map(q).join(' ') }
    case 'json':
      return { kind: 'json', file: step.file, text: json(nest(step.path, step.value)) }
    case 'json-item':
      return { kind: 'json', file: step.file, text: json(nest(step.path, [step.item])) }
    case 'toml':
      return { kind: 'toml', file: step.file, text: [`[${step.table}]`, ...Object.entries(step.keys).map(([key, value]) => `${key} = ${value}`)].join('\n') }
    case 'hook':
      return { kind: 'json', file: step.file, text: json({ hooks: { [step.event]: [hookGroup(step)] } }) }
    case 'file':
      return { kind: 'file', file: step.file, text: step.text }
  }
}

/** The hook group a `hook` step puts in a harness's settings: `{matcher?, hooks: [handler]}`. */
export function hookGroup(step: Extract<SetupStep, { kind: 'hook' }>): Record<string, unknown> {
  return step.matcher !== undefined ? { matcher: step.matcher, hooks: [step.handler] } : { hooks: [step.handler] }
}

/** `["a", "b"], v` → `{a: {b: v}}`. */
function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value)
}

/** Leaves plain words bare; quotes the rest for the person's shell (POSIX single quotes; double quotes on Windows). */
export function quote(value: string, platform: ConnectInfo['platform']): string {
  if (platform === 'win32') return /^[\w./:=@+,\\-]+$/.test(value) ? value : `"${value.replace(/"/g, '\\"')}"`
  if (/^[\w./:=@%+,-]+$/.test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2)
}
