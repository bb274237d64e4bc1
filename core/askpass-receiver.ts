import { execFileSync } from 'node:child_process'
import { readFileSync, readlinkSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'

/** The programs known to print what askpass returns only to themselves. */
export const KNOWN_RECEIVERS: ReadonlySet<string> = new Set([
  'sudo',
  'sudoedit',
  'ssh',
  'ssh-agent',
  'git',
  'git-remote-http',
  'git-remote-https',
])

/** The two setuid-root programs whose askpass parent can only be read through its uids (see {@link judgeReceiver}). */
const SETUID_RECEIVERS: ReadonlySet<string> = new Set(['sudo', 'sudoedit'])

/** The program an askpass answer is printed to, as the kernel names it. */
export interface Receiver {
  /** The program's name: the basename of its executable (or `ps -o comm=` on macOS). */
  program: string
  /** True only when the kernel's facts prove `program` is one of {@link KNOWN_RECEIVERS}. */
  verified: boolean
}

/** What `/proc/<pid>/exe` gave: the executable and who may write it and its folder, or the error code. */
export type ExeFact =
  | { ok: true; path: string; owner: number; mode: number; dirOwner: number; dirMode: number }
  | { ok: false; code: string }

/** What the kernel says about one process (Linux). */
export interface ProcessFacts {
  exe: ExeFact
  /** `/proc/<pid>/status` `Name:` (the comm: settable by the process itself, so a tie-breaker only). */
  name?: string
  /** `/proc/<pid>/status` `Uid:` real and effective. */
  realUid?: number
  effectiveUid?: number
  /** `/proc/<pid>/cmdline` (argv: chosen by whoever started it, so a tie-breaker only). */
  argv: string[]
}

const UNKNOWN = 'an unknown program'

/** True when only root can change the file and the folder holding it (a user cannot plant a `ssh` there). */
function rootControlled(exe: Extract<ExeFact, { ok: true }>): boolean {
  return exe.owner === 0 && (exe.mode & 0o022) === 0 && exe.dirOwner === 0 && (exe.dirMode & 0o022) === 0
}

/**
 * Names the receiver from the kernel's facts about it, for an askpass run by user `userUid`:
 * - `exe` readable (ssh, git, and everything a user starts): the executable's basename; verified when
 *   that is a known receiver and the file and its folder are root's (a user's own copy or hard link
 *   named `ssh` in their home is not). A script's executable is its interpreter, and a symlink resolves
 *   to its target, so neither can be named `sudo` this way.
 * - `exe` refused (EACCES/EPERM: a setuid process of another effective user, which a genuine sudo is):
 *   "sudo" only when real uid = `userUid` (not root), effective uid = 0, and both `Name` and `argv[0]`
 *   say sudo or sudoedit. A user cannot make a process with effective uid 0; name and argv alone they
 *   could forge, so they only decide between sudo and sudoedit.
 * Anything else is unverified, named from what is known.
 */
export function judgeReceiver(facts: ProcessFacts, userUid: number): Receiver {
  const { exe } = facts
  if (exe.ok) {
    const program = basename(exe.path.replace(/ \(deleted\)$/, ''))
    return { program, verified: KNOWN_RECEIVERS.has(program) && rootControlled(exe) }
  }
  const named = facts.name ?? (facts.argv[0] !== undefined ? basename(facts.argv[0]) : undefined)
  if (exe.code !== 'EACCES' && exe.code !== 'EPERM') return { program: named ?? UNKNOWN, verified: false }
  const argv0 = facts.argv[0] !== undefined ? basename(facts.argv[0]) : undefined
  const setuidSudo =
    userUid !== 0 &&
    facts.realUid === userUid &&
    facts.effectiveUid === 0 &&
    facts.name !== undefined &&
    SETUID_RECEIVERS.has(facts.name) &&
    argv0 === facts.name
  return { program: named ?? UNKNOWN, verified: setuidSudo }
}

const codeOf = (error: unknown): string =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'EUNKNOWN'

/** Reads {@link ProcessFacts} of `pid` from /proc; fields that cannot be read are left out. */
export function processFacts(pid: number): ProcessFacts {
  let exe: ExeFact
  try {
    const path = readlinkSync(`/proc/${pid}/exe`)
    const file = statSync(`/proc/${pid}/exe`)
    const dir = statSync(dirname(path.replace(/ \(deleted\)$/, '')))
    exe = { ok: true, path, owner: file.uid, mode: file.mode, dirOwner: dir.uid, dirMode: dir.mode }
  } catch (error) {
    exe = { ok: false, code: codeOf(error) }
  }
  const facts: ProcessFacts = { exe, argv: argvOf(pid) }
  const status = statusOf(pid)
  if (status.name !== undefined) facts.name = status.name
  if (status.uids) [facts.realUid, facts.effectiveUid] = status.uids
  return facts
}

/** `/proc/<pid>/cmdline` as arguments; empty when unreadable. */
export function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg !== '')
  } catch {
    return []
  }
}

/** The fields of `/proc/<pid>/status` this module uses. */
export interface ProcStatus {
  name?: string
  ppid?: number
  /** Real and effective uid. */
  uids?: [number, number]
}

/** Reads `/proc/<pid>/status` (Name, PPid, Uid); empty when unreadable. */
export function statusOf(pid: number): ProcStatus {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return {}
  }
  const out: ProcStatus = {}
  const name = /^Name:\t(.*)$/m.exec(text)?.[1]
  if (name !== undefined) out.name = name
  const ppid = /^PPid:\t(\d+)$/m.exec(text)?.[1]
  if (ppid !== undefined) out.ppid = Number(ppid)
  const uids = /^Uid:\t(\d+)\t(\d+)\t/m.exec(text)
  if (uids) out.uids = [Number(uids[1]), Number(uids[2])]
  return out
}

/**
 * The receiver of an askpass whose parent is `ppid` and whose own real uid is `userUid`: judged from
 * /proc on Linux ({@link judgeReceiver}); on macOS from `ps -o comm=`, never verified (nothing there
 * ties the name to the executable as /proc/<pid>/exe does).
 */
export function receiverOf(ppid: number, userUid: number, platform: NodeJS.Platform = process.platform): Receiver {
  if (platform === 'linux') return judgeReceiver(processFacts(ppid), userUid)
  try {
    const comm = execFileSync('ps', ['-o', 'comm=', '-p', String(ppid)], { encoding: 'utf8', timeout: 2_000 }).trim()
    return { program: comm === '' ? UNKNOWN : basename(comm), verified: false }
  } catch {
    return { program: UNKNOWN, verified: false }
  }
}
