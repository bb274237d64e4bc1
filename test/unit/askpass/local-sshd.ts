// A throw-away sshd on 127.0.0.1 with password authentication, its own host key and config.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

export interface LocalSshd {
  port: number
  /** The host key's SHA256 fingerprint, as ssh shows it. */
  fingerprint: string
  stop(): void
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** Starts `/usr/sbin/sshd -D` from `dir` with `loginGraceSeconds`; resolves once it listens. */
export async function startSshd(dir: string, loginGraceSeconds = 30): Promise<LocalSshd> {
  mkdirSync('/run/sshd', { recursive: true })
  const key = join(dir, 'host_ed25519')
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key])
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', `${key}.pub`], { encoding: 'utf8' }).split(' ')[1] ?? ''
  const port = await freePort()
  const config = join(dir, 'sshd_config')
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${key}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication no',
      'UsePAM yes',
      'PermitRootLogin no',
      `LoginGraceTime ${loginGraceSeconds}`,
      'StrictModes no',
      '',
    ].join('\n'),
  )
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr?.on('data', (chunk: Buffer) => void (log += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 10_000
    const poll = (): void => {
      if (log.includes('Server listening')) return resolve()
      if (child.exitCode !== null || Date.now() > deadline) return reject(new Error(`sshd did not start: ${log}`))
      setTimeout(poll, 50)
    }
    poll()
  })
  return { port, fingerprint, stop: () => void child.kill('SIGTERM') }
}
