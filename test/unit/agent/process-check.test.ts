import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { knownGone, ownPidNamespace, pidExists } from '../../../agent/process-check'

async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await once(child, 'exit')
  return child.pid!
}

describe('whether the process a discovery file names is gone', () => {
  it('a running process exists; an exited one, pid 0 and a negative pid do not', async () => {
    expect(pidExists(process.pid)).toBe(true)
    expect(pidExists(await exitedPid())).toBe(false)
    expect(pidExists(0)).toBe(false)
    expect(pidExists(-1)).toBe(false)
  })

  it('is known gone only when written in this pid namespace', async () => {
    const pid = await exitedPid()
    expect(knownGone(pid, ownPidNamespace())).toBe(true)
    expect(knownGone(process.pid, ownPidNamespace())).toBe(false)
    // a file from another namespace (a container, the host) cannot be checked from here
    expect(knownGone(pid, 'pid:[1]')).toBe(false)
  })

  it.skipIf(process.platform !== 'linux')(
    'on Linux, a file without a namespace (another system wrote it) is not checked',
    async () => {
      expect(knownGone(await exitedPid(), undefined)).toBe(ownPidNamespace() === undefined)
    },
  )
})
