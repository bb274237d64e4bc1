import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { receiverOf, type Receiver } from '../../core/askpass-receiver'

/**
 * The command line of process `pid` as its arguments: `/proc/<pid>/cmdline` on Linux, `ps -o
 * command= -p` elsewhere (macOS; split on spaces there). Empty when it cannot be read.
 */
export function commandLineOf(pid: number, platform: NodeJS.Platform = process.platform): string[] {
  try {
    if (platform === 'linux')
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((arg) => arg !== '')
    const text = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 }).trim()
    return text === '' ? [] : text.split(/\s+/)
  } catch {
    return []
  }
}

/** A value that looks like a credential: known token prefixes, or a long run of token characters. */
const TOKEN_LIKE = /^(?:gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-|AKIA)[\w-]+$|^[A-Za-z0-9_\-+/=.]{32,}$/

/**
 * URL userinfo. Tried only where a run of scheme characters starts (the lookbehind), and the scheme
 * taken from the run's first letter, so that no run is scanned again from each of its characters
 * (arguments are the receiver's, up to 128 KiB each: quadratic there is a hang).
 */
const URL_USERINFO = /(?<![a-z0-9+.-])([0-9+.-]*[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi
/** An option name and its `=`, tried only where a run of name characters starts (as above). */
const OPTION_NAME = /(?<![\w-])[\w-]+=/gi
/** A credential word anywhere in an option name. */
const CREDENTIAL_NAME = /pass(?:word)?|passwd|token|secret|key|auth/i
/** An option's value, matched where its name ends. */
const OPTION_VALUE = /[^&\s]+/y

/** The value of every option whose name holds a credential word, as `***` (`--db-password=x` → `--db-password=***`). */
function redactOptionValues(text: string): string {
  let out = ''
  let copied = 0
  OPTION_NAME.lastIndex = 0
  for (let name = OPTION_NAME.exec(text); name !== null; name = OPTION_NAME.exec(text)) {
    if (!CREDENTIAL_NAME.test(name[0])) continue
    OPTION_VALUE.lastIndex = OPTION_NAME.lastIndex
    if (OPTION_VALUE.exec(text) === null) continue
    out += text.slice(copied, OPTION_NAME.lastIndex) + '***'
    copied = OPTION_NAME.lastIndex = OPTION_VALUE.lastIndex
  }
  return out + text.slice(copied)
}

/**
 * One argument with secrets taken out, since the title goes into history: URL userinfo
 * (`https://u:p@host` → `https://***@host`), the value of `--password=…`/`token=…`-style options, and
 * token-like values. Linear in the argument.
 */
export function redactArgument(arg: string): string {
  const out = redactOptionValues(arg.replace(URL_USERINFO, '$1***@'))
  if (TOKEN_LIKE.test(out) && !out.includes('/')) return '***'
  return out
}

/** The receiver's command line for the ask's title: redacted, joined by spaces. */
export function redactedCommandLine(args: readonly string[]): string {
  return args.map(redactArgument).join(' ')
}

/**
 * Who receives what this askpass prints: its parent `ppid`, named from what the kernel says
 * (core/askpass-receiver.ts), never from the parent's argv[0], which its starter chooses.
 */
export function parentReceiver(ppid: number, platform: NodeJS.Platform = process.platform): Receiver {
  return receiverOf(ppid, process.getuid?.() ?? -1, platform)
}
