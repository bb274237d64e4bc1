import { quote, type ConnectInfo } from './connect'
import type { SetupStep } from './setup-plan'

/** The harnesses `ask-user setup <harness> --hooks` can install hooks for. */
export const HOOK_CLIENTS = ['claude-code', 'codex', 'gemini', 'opencode'] as const
export type HookClient = (typeof HOOK_CLIENTS)[number]

/** True for a harness with hooks. */
export function isHookClient(name: string): name is HookClient {
  return (HOOK_CLIENTS as readonly string[]).includes(name)
}

/** A hook may wait this long for the person, in seconds (Claude's runs beside its own dialog). */
const CLAUDE_HOOK_TIMEOUT_SECONDS = 86_400
/** Codex and Gemini wait for the hook before they show their own prompt: ten minutes, then they ask. */
const BLOCKING_HOOK_TIMEOUT_SECONDS = 600

/** Gemini CLI's tools that ask for confirmation, the ones its BeforeTool hook is matched to. */
const GEMINI_MATCHER = '^(run_shell_command|write_file|replace|web_fetch)$'

/** The file name of the opencode plugin, in opencode's global plugin folder. */
export const OPENCODE_PLUGIN_FILE = '~/.config/opencode/plugin/ask-user.js'

/**
 * The shell line a harness runs for `ask-user hook <harness>`: this install's absolute command, with
 * the companion's environment in front (POSIX `K=V cmd`, `set "K=V" && cmd` on Windows).
 */
export function hookCommand(harness: HookClient, info: ConnectInfo): string {
  const q = (value: string): string => quote(value, info.platform)
  const command = [info.commandLine.command, ...info.commandLine.args, 'hook', harness].map(q).join(' ')
  const env = Object.entries(info.env)
  return info.platform === 'win32'
    ? [...env.map(([key, value]) => `set "${key}=${value}"`), command].join(' && ')
    : [...env.map(([key, value]) => q(`${key}=${value}`)), command].join(' ')
}

/**
 * The hook entries of one harness, each a `hook` step (one `{matcher?, hooks:[{type:"command",…}]}`
 * group in the settings' `hooks.<event>` array, recognised as ours by its `ask-user … hook <harness>`
 * command), or for opencode the plugin file.
 */
export function hookSteps(harness: HookClient, info: ConnectInfo): SetupStep[] {
  const command = hookCommand(harness, info)
  const hook = (file: string, event: string, timeout: number, matcher?: string): SetupStep => ({
    kind: 'hook',
    file,
    event,
    ...(matcher !== undefined ? { matcher } : {}),
    handler: { type: 'command', command, timeout },
  })
  switch (harness) {
    case 'claude-code': {
      const file = '~/.claude/settings.json'
      return [
        hook(file, 'PermissionRequest', CLAUDE_HOOK_TIMEOUT_SECONDS, '*'),
        hook(file, 'PreToolUse', CLAUDE_HOOK_TIMEOUT_SECONDS, 'AskUserQuestion'),
        hook(file, 'Notification', 30),
        hook(file, 'Stop', 30),
      ]
    }
    case 'codex': {
      const file = '~/.codex/hooks.json'
      return [hook(file, 'PermissionRequest', BLOCKING_HOOK_TIMEOUT_SECONDS), hook(file, 'Stop', 30)]
    }
    case 'gemini': {
      // Gemini CLI's hook timeouts are milliseconds.
      const file = '~/.gemini/settings.json'
      return [hook(file, 'BeforeTool', BLOCKING_HOOK_TIMEOUT_SECONDS * 1000, GEMINI_MATCHER), hook(file, 'Notification', 30_000)]
    }
    case 'opencode':
      return [{ kind: 'file', file: OPENCODE_PLUGIN_FILE, text: opencodePlugin(command) }]
  }
}

/** Notes `setup --hooks` prints for a harness. */
export function hookNotes(harness: HookClient): string[] {
  switch (harness) {
    case 'codex':
      return ['Codex runs a user hook only once you trust it: open /hooks in Codex and trust the ask-user hooks.']
    case 'gemini':
      return ['Gemini CLI hooks can deny a tool but not approve it: Allow in the inbox lets Gemini ask (or its policy decide) as usual.']
    case 'opencode':
      return ['Restart opencode to load the plugin.']
    default:
      return []
  }
}

/**
 * The opencode plugin: on `permission.asked` and `question.asked` server events it runs `command`
 * with the event on stdin and, when that prints a reply, sends it with opencode's own client. It
 * prints nothing when there is no companion or the person dismissed: the request stays for opencode's
 * own prompt. Plain JavaScript, no imports (opencode loads it with Bun).
 */
export function opencodePlugin(command: string): string {
  return `// Written by \`ask-user setup opencode --hooks\`; \`--remove --hooks\` deletes it. Edits are overwritten.
// Brings opencode's permission requests and questions into the Ask User Companion inbox.
const COMMAND = ${JSON.stringify(command)}

export const AskUserCompanion = async ({ client, directory }) => {
  const { spawn } = await import("node:child_process")
  const running = new Map()
  const ask = (event) =>
    new Promise((resolve) => {
      const child = spawn(COMMAND, { shell: true, stdio: ["pipe", "pipe", "ignore"] })
      running.set(event.properties.id, child)
      let out = ""
      child.stdout.on("data", (chunk) => (out += chunk))
      child.on("error", () => resolve(undefined))
      child.on("close", () => {
        running.delete(event.properties.id)
        try {
          resolve(out.trim() === "" ? undefined : JSON.parse(out))
        } catch {
          resolve(undefined)
        }
      })
      child.stdin.end(JSON.stringify({ ...event, directory }))
    })
  return {
    event: async ({ event }) => {
      if (event.type === "permission.replied" || event.type === "question.replied" || event.type === "question.rejected") {
        running.get(event.properties.requestID)?.kill("SIGTERM")
        return
      }
      if (event.type !== "permission.asked" && event.type !== "question.asked") return
      const reply = await ask(event)
      if (reply === undefined) return
      const requestID = event.properties.id
      try {
        if (event.type === "permission.asked") await client.permission.reply({ requestID, reply: reply.reply, ...(reply.message ? { message: reply.message } : {}) })
        else await client.question.reply({ requestID, answers: reply.answers })
      } catch {
        // Answered in the terminal meanwhile, or the server went away: opencode's own prompt decides.
      }
    },
  }
}
`
}
