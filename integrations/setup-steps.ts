import type { ConnectInfo } from '../shared/connect'

/** Name of the MCP server entry the set-up creates. */
export const SERVER_NAME = 'ask-user'
/** The tool's name as the MCP server lists it. */
export const TOOL_NAME = 'ask_user_question'
/**
 * How long a harness may let a question wait, in seconds: a day (people answer after lunch, or
 * overnight). As milliseconds it stays below 2^31 - 1, past which Node's timers fire at once.
 */
export const TOOL_TIMEOUT_SECONDS = 86_400

/**
 * One change of a client's user-level configuration:
 * - `run`: the client's own CLI writes its entry (`argv[0]` is the client's command); `entry` says
 *   where and what it writes, so that a set-up can tell it is already done; `remove` undoes it;
 * - `json`: `value` set at `path` in a JSON (or JSONC) file; removing deletes the key;
 * - `json-item`: `item` present in the array at `path`; removing takes only that item out;
 * - `toml`: `keys` (TOML literals) set in `table`; removing deletes those keys, and the table when
 *   nothing else is left in it.
 * - `hook`: one hook group `{matcher?, hooks:[handler]}` in the array at `hooks.<event>` of a JSON
 *   settings file, recognised as ours by its `… hook <harness>` command (or, for Claude Code's
 *   `mcp_tool` handler, by its server `ask-user`); removing takes only ours out;
 * - `file`: a whole file that is ours (opencode's plugin); removing deletes it.
 * Files are given with `~` for the home folder (`~/.config` stands for XDG_CONFIG_HOME where set).
 */
export type SetupStep =
  | {
      kind: 'run'
      argv: string[]
      remove: string[]
      entry: { file: string; path: string[]; value: Record<string, unknown> }
    }
  | { kind: 'json'; file: string; path: string[]; value: unknown }
  | { kind: 'json-item'; file: string; path: string[]; item: string }
  | { kind: 'toml'; file: string; table: string; keys: Record<string, string> }
  | { kind: 'hook'; file: string; event: string; matcher?: string; handler: HookHandler }
  | { kind: 'file'; file: string; text: string }

/**
 * A hook handler: a command the harness spawns, or (Claude Code) a tool of our MCP server it calls
 * with `input`, each `${field}` in it replaced by that field of the event. `timeout` is in the
 * harness's own unit.
 */
export type HookHandler =
  | { type: 'command'; command: string; timeout: number }
  | { type: 'mcp_tool'; server: string; tool: string; input: Record<string, string>; timeout: number }

/** The hook group a `hook` step puts in a harness's settings: `{matcher?, hooks: [handler]}`. */
export function hookGroup(step: Extract<SetupStep, { kind: 'hook' }>): Record<string, unknown> {
  return step.matcher !== undefined ? { matcher: step.matcher, hooks: [step.handler] } : { hooks: [step.handler] }
}

/** What `ask-user setup <client>` does for one client, and notes the person should read. */
export interface SetupPlan {
  steps: SetupStep[]
  notes: string[]
}

/** How a harness starts this install's MCP server: `argv` whole, and split as most config files want it. */
export interface McpLaunch {
  /** `[command, ...args, 'mcp']`: the absolute command of this install, never `npx`. */
  argv: [string, ...string[]]
  command: string
  args: string[]
  /** The companion's environment the server must be given (ASK_USER_HOME where not the default). */
  env: Record<string, string>
  /** `flag K=V` pairs of {@link env}, for a client's `mcp add` (`--env`, `-e`). */
  envPairs: (flag: string) => string[]
}

/** The MCP server launch for this install, the common start of every harness's `mcp` set-up. */
export function mcpLaunch(info: ConnectInfo): McpLaunch {
  const argv: [string, ...string[]] = [info.commandLine.command, ...info.commandLine.args, 'mcp']
  const [command, ...args] = argv
  const env = info.env
  return {
    argv,
    command,
    args,
    env,
    envPairs: (flag) => Object.entries(env).flatMap(([key, value]) => [flag, `${key}=${value}`]),
  }
}
