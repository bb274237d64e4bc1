import { readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { AskpassMark } from '../shared/ask'
import type { ConnectInfo } from '../shared/connect'
import { argvOf, receiverOf, statusOf } from './askpass-receiver'
import { holdsSocket, peerSocketInode, socketHolders, type LoopbackPeer } from './peer-process'

/** How this install's askpass helper looks in `/proc/<pid>/cmdline` once it runs. */
export interface HelperIdentity {
  /** `bin/ask-user-askpass.js` files (real paths), run by Node as `node SCRIPT PROMPT`. */
  scripts: string[]
  /** `bin/ask-user.js` files (real paths), run by Node as `node SCRIPT __askpass PROMPT` (the packaged launcher). */
  cliScripts: string[]
  /** The packaged app's executable, run as `APP __askpass PROMPT` in command-line mode. */
  executables: string[]
}

/** The CLI's internal command the helper runs (bin/ask-user-askpass.js and the packaged launcher). */
const ASKPASS_COMMAND = '__askpass'

const realOr = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/**
 * This install's helper, from how agents here run `ask-user` (`connect`): beside a `bin/ask-user.js`
 * script sits `bin/ask-user-askpass.js`; beside a packaged launcher `resources/bin/ask-user` the CLI
 * bundle `resources/cli/bin/ask-user.js`. `appExecutable` (the Electron app's own executable, when
 * the core runs inside it) runs the CLI in command-line mode. Nothing is known without `connect`.
 */
export function helperIdentityOf(connect: ConnectInfo | undefined, appExecutable?: string): HelperIdentity {
  const identity: HelperIdentity = {
    scripts: [],
    cliScripts: [],
    executables: appExecutable ? [realOr(appExecutable)] : [],
  }
  const command = connect?.commandLine.command
  if (command === undefined || !isAbsolute(command)) return identity
  if (basename(command) === 'ask-user.js') {
    identity.scripts.push(realOr(join(dirname(command), 'ask-user-askpass.js')))
    identity.cliScripts.push(realOr(command))
  } else if (basename(command) === 'ask-user' && basename(dirname(command)) === 'bin') {
    identity.cliScripts.push(realOr(join(dirname(dirname(command)), 'cli', 'bin', 'ask-user.js')))
  }
  return identity
}

/** Environment variables that load other code into a Node process. */
const INJECTING_ENV = /^(?:NODE_OPTIONS|LD_PRELOAD|LD_AUDIT)=./

/**
 * True when process `pid` runs this install's helper: Node (an executable named `node…`) with one of
 * its scripts as the first argument and nothing but the prompt after it, or the app in command-line
 * mode with `__askpass`; and no `NODE_OPTIONS`/`LD_PRELOAD` that would load other code into it.
 */
export function isOurHelper(pid: number, identity: HelperIdentity): boolean {
  let exe: string
  let cwd: string
  try {
    exe = readlinkSync(`/proc/${pid}/exe`)
    cwd = readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return false
  }
  const argv = argvOf(pid)
  if (injected(pid)) return false
  if (identity.executables.includes(exe)) return argv[1] === ASKPASS_COMMAND && argv.length <= 3
  if (!/^node(?:js)?[\d.]*$/.test(basename(exe)) || argv[1] === undefined) return false
  const script = realOr(resolve(cwd, argv[1]))
  if (identity.scripts.includes(script)) return argv.length <= 3
  return identity.cliScripts.includes(script) && argv[2] === ASKPASS_COMMAND && argv.length <= 4
}

function injected(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .some((entry) => INJECTING_ENV.test(entry))
  } catch {
    return true // unreadable: cannot tell, so not ours
  }
}

/**
 * The companion's own finding about an agent connection (Linux): the peer's socket is held by
 * `claimedPid` (the pid from its `hello`, checked here against the kernel), that process is this
 * install's helper, no other process holds the socket, and the helper's parent is judged by
 * {@link receiverOf}. Undefined for everything else: not Linux, no pid claimed, any check failing.
 */
export function askpassMarkOf(
  peer: LoopbackPeer,
  claimedPid: number | undefined,
  identity: HelperIdentity,
  platform: NodeJS.Platform = process.platform,
): AskpassMark | undefined {
  if (platform !== 'linux' || claimedPid === undefined) return undefined
  if (identity.scripts.length + identity.cliScripts.length + identity.executables.length === 0) return undefined
  const inode = peerSocketInode(peer)
  if (inode === undefined || !holdsSocket(claimedPid, inode) || !isOurHelper(claimedPid, identity)) return undefined
  // Another holder could write on the helper's socket (an inherited descriptor): then it is not the helper's alone.
  if (socketHolders(inode).some((pid) => pid !== claimedPid)) return undefined
  const status = statusOf(claimedPid)
  if (status.ppid === undefined || status.uids === undefined) return undefined
  const receiver = receiverOf(status.ppid, status.uids[0], platform)
  return { receiver: receiver.program, verified: receiver.verified }
}
