import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { receiverOf, type Receiver } from '../../core/askpass-receiver'

/**
 * The command line of process `pid` as its arguments: `/proc/<pid>/cmdline` on Linux, `ps -o
 * command= -p` elsewhere (macOS; split on spaces there). Empty when it cannot be read.
 */
export function commandLineOf(pid: number, platform: NodeJS.Platform = process.platform): string[] {
  try {
    if (platform === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '')
    const text = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 }).trim()
    return text === '' ? [] : text.split(/\s+/)
  } catch {
    return []
  }
}

/** A value that looks like a credential: known token prefixes, or a long run of token characters. */
const TOKEN_LIKE = /^(?:gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-|AKIA)[\w-]+$|^[A-Za-z0-9_\-+/=.]{32,}$/

/**
 * One argument with secrets taken out, since the title goes into history: URL userinfo
 * (`https://u:p@host` → `https://***@host`), the value of `--password=…`/`token=…`-style options, and
 * token-like values.
 */
export function redactArgument(arg: string): string {
  let out = arg.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@')
  out = out.replace(/((?:pass(?:word)?|passwd|token|secret|key|auth)[\w-]*=)[^&\s]+/gi, '$1***')
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
