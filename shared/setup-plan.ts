import type { ConnectInfo } from './connect'

/** Name of the MCP server entry the set-up creates. */
export const SERVER_NAME = 'ask-user'
/** The tool's name as the MCP server lists it. */
const TOOL = 'ask_user_question'
/**
 * How long a harness may let a question wait, in seconds: a day (people answer after lunch, or
 * overnight). As milliseconds it stays below 2^31 - 1, past which Node's timers fire at once.
 */
export const TOOL_TIMEOUT_SECONDS = 86_400

/** The harnesses `ask-user setup` configures (every MCP client of the panel). */
export const SETUP_CLIENTS = ['claude-code', 'codex', 'gemini', 'qwen', 'opencode', 'cursor'] as const
export type SetupClient = (typeof SETUP_CLIENTS)[number]

/** True for a harness `ask-user setup` knows. */
export function isSetupClient(name: string): name is SetupClient {
  return (SETUP_CLIENTS as readonly string[]).includes(name)
}

/**
 * One change of a client's user-level configuration:
 * - `run`: the client's own CLI writes its entry (`argv[0]` is the client's command); `entry` says
 *   where and what it writes, so that a set-up can tell it is already done; `remove` undoes it;
 * - `json`: `value` set at `path` in a JSON (or JSONC) file; removing deletes the key;
 * - `json-item`: `item` present in the array at `path`; removing takes only that item out;
 * - `toml`: `keys` (TOML literals) set in `table`; removing deletes those keys, and the table when
 *   nothing else is left in it.
 * - `hook`: one hook group `{matcher?, hooks:[handler]}` in the array at `hooks.<event>` of a JSON
 *   settings file, recognised as ours by its `… hook <harness>` command; removing takes only ours out;
 * - `file`: a whole file that is ours (opencode's plugin); removing deletes it.
 * Files are given with `~` for the home folder (`~/.config` stands for XDG_CONFIG_HOME where set).
 */
export type SetupStep =
  | { kind: 'run'; argv: string[]; remove: string[]; entry: { file: string; path: string[]; value: Record<string, unknown> } }
  | { kind: 'json'; file: string; path: string[]; value: unknown }
  | { kind: 'json-item'; file: string; path: string[]; item: string }
  | { kind: 'toml'; file: string; table: string; keys: Record<string, string> }
  | { kind: 'hook'; file: string; event: string; matcher?: string; handler: { type: 'command'; command: string; timeout: number } }
  | { kind: 'file'; file: string; text: string }

/** What `ask-user setup <client>` does for one client, and notes the person should read. */
export interface SetupPlan {
  steps: SetupStep[]
  notes: string[]
}

/**
 * The exact user-level set-up of one client for this install: the absolute command (never `npx`),
 * the companion's environment, a day of tool timeout where the client has one, and the allow-list
 * or trust entry that spares a prompt on every question. One source for `ask-user setup` and the
 * window's "Connect an agent" panel.
 */
export function setupPlan(client: SetupClient, info: ConnectInfo): SetupPlan {
  const mcp = [info.commandLine.command, ...info.commandLine.args, 'mcp']
  const [command, ...args] = mcp as [string, ...string[]]
  const env = info.env
  const envPairs = (flag: string): string[] => Object.entries(env).flatMap(([key, value]) => [flag, `${key}=${value}`])
  const timeoutMs = TOOL_TIMEOUT_SECONDS * 1000
  switch (client) {
    case 'claude-code': {
      // add-json at user scope writes ~/.claude.json. No timeout key: Claude's own limit (1e8 ms,
      // about 28 h) is longer than any we would set, and a per-server value would replace it.
      const entry = { type: 'stdio', command, args, env }
      return {
        steps: [
          {
            kind: 'run',
            argv: ['claude', 'mcp', 'add-json', '--scope', 'user', SERVER_NAME, JSON.stringify(entry)],
            remove: ['claude', 'mcp', 'remove', '--scope', 'user', SERVER_NAME],
            entry: { file: '~/.claude.json', path: ['mcpServers', SERVER_NAME], value: entry },
          },
          { kind: 'json-item', file: '~/.claude/settings.json', path: ['permissions', 'allow'], item: `mcp__${SERVER_NAME}__${TOOL}` },
        ],
        notes: [],
      }
    }
    case 'codex':
      // Codex passes a filtered environment (hence env and env_vars), cuts tool calls after 60 s
      // (tool_timeout_sec) and `codex mcp add` has no flags for either.
      return {
        steps: [
          {
            kind: 'run',
            argv: ['codex', 'mcp', 'add', SERVER_NAME, ...envPairs('--env'), '--', ...mcp],
            remove: ['codex', 'mcp', 'remove', SERVER_NAME],
            entry: { file: '~/.codex/config.toml', path: ['mcp_servers', SERVER_NAME], value: { command, args, env } },
          },
          {
            kind: 'toml',
            file: '~/.codex/config.toml',
            table: `mcp_servers.${SERVER_NAME}`,
            keys: { env_vars: '["ASK_USER_URL", "ASK_USER_TOKEN_FILE", "ASK_USER_TOKEN"]', tool_timeout_sec: String(TOOL_TIMEOUT_SECONDS) },
          },
          { kind: 'toml', file: '~/.codex/config.toml', table: `mcp_servers.${SERVER_NAME}.tools.${TOOL}`, keys: { approval_mode: '"approve"' } },
        ],
        notes: [],
      }
    case 'gemini':
    case 'qwen': {
      const folder = client === 'gemini' ? '.gemini' : '.qwen'
      return {
        steps: [
          {
            kind: 'run',
            // Options before the name and no `--` (Gemini CLI refuses it); -s user (Gemini's default is the project).
            argv: [client, 'mcp', 'add', '-s', 'user', '--trust', '--timeout', String(timeoutMs), ...envPairs('-e'), SERVER_NAME, ...mcp],
            remove: [client, 'mcp', 'remove', '-s', 'user', SERVER_NAME],
            entry: { file: `~/${folder}/settings.json`, path: ['mcpServers', SERVER_NAME], value: { command, args, env, timeout: timeoutMs, trust: true } },
          },
        ],
        notes:
          client === 'gemini'
            ? ['Gemini CLI starts no MCP server in a folder it does not trust: trust your project folders when it asks.']
            : [],
      }
    }
    case 'opencode':
      // `opencode mcp add` cannot set a timeout (a tool call would be cut after the SDK's 60 s).
      return {
        steps: [
          {
            kind: 'json',
            file: '~/.config/opencode/opencode.jsonc',
            path: ['mcp', SERVER_NAME],
            value: { type: 'local', command: mcp, environment: env, enabled: true, timeout: timeoutMs },
          },
          { kind: 'json', file: '~/.config/opencode/opencode.jsonc', path: ['permission', `${SERVER_NAME}_*`], value: 'allow' },
        ],
        notes: [],
      }
    case 'cursor':
      return {
        steps: [{ kind: 'json', file: '~/.cursor/mcp.json', path: ['mcpServers', SERVER_NAME], value: { type: 'stdio', command, args, env } }],
        notes: ['Cursor has no per-server tool timeout; a question left longer than its limit (reported: 5 minutes) is withdrawn.'],
      }
  }
}
