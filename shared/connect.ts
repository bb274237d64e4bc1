import { z } from 'zod'

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

/** One copyable block: a command to run, or a snippet to merge into a config file. */
export interface ConnectBlock {
  kind: 'command' | 'json' | 'toml'
  /** The file a snippet goes into (with `~` for the home folder); absent for a command. */
  file?: string
  text: string
}

/** Name of the MCP server entry the set-up lines create. */
export const SERVER_NAME = 'ask-user'
/**
 * How long a harness may let a question wait, in seconds: a day (people answer after lunch, or
 * overnight). As milliseconds it stays below 2^31 - 1, past which Node's timers fire at once.
 */
export const TOOL_TIMEOUT_SECONDS = 86_400

/** The exact set-up blocks for one harness on this machine: absolute paths, environment and timeouts filled in. */
export function connectBlocks(harness: HarnessId, info: ConnectInfo): ConnectBlock[] {
  const mcp = [info.commandLine.command, ...info.commandLine.args, 'mcp']
  const [command, ...args] = mcp as [string, ...string[]]
  const q = (value: string): string => quote(value, info.platform)
  const envFlags = (flag: string): string[] => Object.entries(info.env).map(([key, value]) => `${flag} ${q(`${key}=${value}`)}`)
  switch (harness) {
    case 'claude-code':
      // The server name goes before -e (which takes the next word too). Claude's own tool timeout
      // (about 28 h) is long enough; MCP_TOOL_TIMEOUT would only shorten it.
      return [
        { kind: 'command', text: ['claude mcp add --scope user', SERVER_NAME, ...envFlags('-e'), '--', ...mcp.map(q)].join(' ') },
        { kind: 'json', file: '~/.claude/settings.json', text: json({ permissions: { allow: [`mcp__${SERVER_NAME}__ask_user_question`] } }) },
      ]
    case 'codex':
      // Codex passes MCP servers only a few variables (hence env) and cuts tool calls after 60 s.
      return [
        {
          kind: 'toml',
          file: '~/.codex/config.toml',
          text: [
            `[mcp_servers.${SERVER_NAME}]`,
            `command = ${tomlString(command)}`,
            `args = [${args.map(tomlString).join(', ')}]`,
            ...(Object.keys(info.env).length > 0
              ? [`env = { ${Object.entries(info.env).map(([key, value]) => `${key} = ${tomlString(value)}`).join(', ')} }`]
              : []),
            `tool_timeout_sec = ${TOOL_TIMEOUT_SECONDS}`,
            '',
            `[mcp_servers.${SERVER_NAME}.tools.ask_user_question]`,
            'approval_mode = "approve"',
          ].join('\n'),
        },
      ]
    case 'gemini':
    case 'qwen':
      // Options before the name, and no `--` (Gemini CLI refuses it); -s user, since Gemini's default is the project.
      return [
        {
          kind: 'command',
          text: [harness, 'mcp add -s user --trust', `--timeout ${TOOL_TIMEOUT_SECONDS * 1000}`, ...envFlags('-e'), SERVER_NAME, ...mcp.map(q)].join(' '),
        },
      ]
    case 'opencode':
      return [
        {
          kind: 'json',
          file: '~/.config/opencode/opencode.jsonc',
          text: json({ mcp: { [SERVER_NAME]: { type: 'local', command: mcp, environment: info.env, enabled: true, timeout: TOOL_TIMEOUT_SECONDS * 1000 } } }),
        },
      ]
    case 'cursor':
      return [{ kind: 'json', file: '~/.cursor/mcp.json', text: json({ mcpServers: { [SERVER_NAME]: { type: 'stdio', command, args, env: info.env } } }) }]
    case 'shell': {
      const ask = [...[info.commandLine.command, ...info.commandLine.args].map(q), 'ask --question "Deploy now?" --option Yes --option No'].join(' ')
      const entries = Object.entries(info.env)
      // POSIX shells take the variables in front of the command; cmd.exe sets them first.
      const text =
        info.platform === 'win32'
          ? [...entries.map(([key, value]) => `set "${key}=${value}"`), ask].join(' && ')
          : [...entries.map(([key, value]) => q(`${key}=${value}`)), ask].join(' ')
      return [{ kind: 'command', text }]
    }
  }
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

/** A TOML basic string (JSON's escapes are valid TOML for the characters paths contain). */
function tomlString(value: string): string {
  return JSON.stringify(value)
}
