// Routing the password prompts of an agent's commands (sudo, ssh, git) to the inbox: the helper's
// path and variables, and the shell-profile block. Each harness record says where its variables go.
import type { ConnectInfo } from '../shared/connect'

/** The line the set-up suggests for the agent's memory file (CLAUDE.md, AGENTS.md, GEMINI.md); never written. */
export const MEMORY_LINE =
  'When a command needs sudo, run `sudo -A …`: the password is asked in the Ask User inbox (never type or echo passwords yourself).'

/**
 * The absolute path of this install's `ask-user-askpass`: beside `bin/ask-user.js` (npm), or beside
 * the packaged `ask-user` launcher (resources/bin). Undefined where there is none (Windows).
 */
export function askpassPath(info: ConnectInfo): string | undefined {
  const script = [info.commandLine.command, ...info.commandLine.args].find((part) =>
    /[\\/]bin[\\/]ask-user\.js$/.test(part),
  )
  if (script !== undefined) return script.replace(/ask-user\.js$/, 'ask-user-askpass.js')
  if (/\/bin\/ask-user$/.test(info.commandLine.command)) return `${info.commandLine.command}-askpass`
  return undefined // an AppImage (no launcher beside it) or Windows
}

/**
 * The variables that route sudo's, ssh's and git's password prompts to the inbox: the helper in
 * SUDO_ASKPASS, SSH_ASKPASS and GIT_ASKPASS; SSH_ASKPASS_REQUIRE=force (ssh then needs no DISPLAY);
 * GIT_TERMINAL_PROMPT=0 (a failed helper errors instead of hanging); DISPLAY=:0 only when
 * `displaySet` is false (sudo uses SUDO_ASKPASS without -A only with no terminal and a DISPLAY);
 * plus the companion's own environment (ASK_USER_HOME where it is not the default).
 */
export function askpassVariables(helper: string, info: ConnectInfo, displaySet: boolean): Record<string, string> {
  return {
    SUDO_ASKPASS: helper,
    SSH_ASKPASS: helper,
    GIT_ASKPASS: helper,
    SSH_ASKPASS_REQUIRE: 'force',
    GIT_TERMINAL_PROMPT: '0',
    ...(displaySet ? {} : { DISPLAY: ':0' }),
    ...info.env,
  }
}

/** The note every harness's `--askpass` set-up ends with: a terminal's sudo still asks there. */
export const ASKPASS_MEMORY_NOTE = `agents that run commands in a terminal still get sudo's own prompt there; add this line to the agent's memory file: ${MEMORY_LINE}`

/** Markers around the shell-profile block, so that writing it again replaces it and --remove finds it. */
export const SHELL_BLOCK_START = '# >>> ask-user askpass >>>'
export const SHELL_BLOCK_END = '# <<< ask-user askpass <<<'

/** The POSIX shell-profile block (`ask-user setup shell --askpass`): DISPLAY only when unset. */
export function shellBlock(variables: Record<string, string>): string {
  const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`
  const lines = Object.entries(variables)
    .filter(([key]) => key !== 'DISPLAY')
    .map(([key, value]) => `export ${key}=${quote(value)}`)
  return [SHELL_BLOCK_START, ...lines, '[ -n "$DISPLAY" ] || export DISPLAY=:0', SHELL_BLOCK_END].join('\n')
}
