// The attacker of the security tests: a second, real Unix user with no sudo rights and no group of
// ours, created for one test file and removed after it. Each file gets a user of its own (the name
// carries this process's id), so test files and concurrent runs never share or remove each other's.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { accountCommand } from './account-command'
import { tempFolderClosedReason } from './temp-reach'

export interface Attacker {
  name: string
  uid: number
  gid: number
  /** The attacker's own home folder (mode 0700, theirs). */
  home: string
  /** Spawns `command args` as the attacker (setpriv, no supplementary groups), env: PATH and HOME only. */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess
  /**
   * Runs `command args` as the attacker to completion; stdout as text, throws on a non-zero exit. It
   * blocks this process: never use it against a companion running in this process (use {@link exec}).
   */
  run(command: string, args: string[], options?: { input?: string; timeoutMs?: number }): string
  /** Runs `command args` as the attacker without blocking; resolves with its exit code and output. */
  exec(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>
  /** Writes `source` to a file in the attacker's home, owned by the attacker; returns its path. */
  writeFile(name: string, source: string): string
  /** Kills what the attacker still runs and removes the user and its home. Safe to call twice. */
  remove(): void
}

/**
 * Why the tests with an attacker cannot run here, or undefined when they can: they need root, and a
 * temp folder the attacker can enter (what it runs or plants goes there, never in the checkout).
 */
export function attackerSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'an attacker user is made with useradd on Linux only'
  if (process.getuid?.() !== 0) return 'making a second Unix user needs root'
  return tempFolderClosedReason()
}

/** Creates a fresh attacker user; call {@link Attacker.remove} in `afterAll`. Needs root (see above). */
export function createAttacker(): Attacker {
  const name = `auc-atk-${process.pid}-${randomBytes(2).toString('hex')}`
  accountCommand('useradd', ['-m', '-s', '/bin/sh', '-K', 'UMASK=077', name])
  const id = (flag: string): number => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim())
  const uid = id('-u')
  const gid = id('-g')
  const home = `/home/${name}`
  chmodSync(home, 0o700)
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home }
  const prefix = ['--reuid', String(uid), '--regid', String(gid), '--clear-groups', '--']
  let removed = false
  return {
    name,
    uid,
    gid,
    home,
    spawn: (command, args, options = {}) =>
      spawn('setpriv', [...prefix, command, ...args], { cwd: home, env, ...options }),
    run: (command, args, options = {}) =>
      execFileSync('setpriv', [...prefix, command, ...args], {
        cwd: home,
        env,
        encoding: 'utf8',
        input: options.input ?? '',
        timeout: options.timeoutMs ?? 30_000,
      }),
    exec: (command, args) =>
      new Promise((resolve, reject) => {
        const child = spawn('setpriv', [...prefix, command, ...args], {
          cwd: home,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let stdout = ''
        let stderr = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
        child.once('error', reject)
        child.once('close', (code) => resolve({ code, stdout, stderr }))
      }),
    writeFile: (file, source) => {
      const path = join(home, file)
      writeFileSync(path, source, { mode: 0o700 })
      chownSync(path, uid, gid)
      return path
    },
    remove: () => {
      if (removed) return
      removed = true
      try {
        execFileSync('pkill', ['-KILL', '-u', String(uid)], { stdio: 'ignore' })
      } catch {
        // nothing left running
      }
      accountCommand('userdel', ['-r', '-f', name])
    },
  }
}
