import { readlinkSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCompanion, type Companion } from '../../../core'
import { isProcessAlive, readEndpointFile } from '../../../core/discovery'
import { EndpointFileSchema } from '../../../shared/wire'

const posix = process.platform !== 'win32'
let home: string
let companions: Companion[] = []
afterEach(async () => {
  await Promise.all(companions.map((c) => c.close()))
  companions = []
  if (home) await rm(home, { recursive: true, force: true })
})
async function freshHome(): Promise<string> {
  home = await mkdtemp(join(tmpdir(), 'ask-user-discovery-'))
  return home
}
async function start(h: string): Promise<Companion> {
  const c = await startCompanion({ home: h, port: 0, onWarning: () => undefined })
  companions.push(c)
  return c
}
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

describe('endpoint.json', () => {
  it('is written with protocol, url, token, pid; mode 0600 in a 0700 folder; removed on close', async () => {
    const h = join(await freshHome(), 'nested', 'home')
    const c = await start(h)
    const file = EndpointFileSchema.parse(JSON.parse(await readFile(join(h, 'endpoint.json'), 'utf8')))
    expect(file).toEqual({
      protocol: 1,
      url: `ws://127.0.0.1:${c.port}/v1/agent`,
      token: c.token,
      pid: process.pid,
      ...(process.platform === 'linux' ? { pidNamespace: readlinkSync('/proc/self/ns/pid') } : {}),
    })
    expect(c.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    if (posix) {
      expect((await stat(join(h, 'endpoint.json'))).mode & 0o777).toBe(0o600)
      expect((await stat(h)).mode & 0o777).toBe(0o700)
    }
    await c.close()
    expect(await readEndpointFile(h)).toBeUndefined()
  })

  it.runIf(posix)('tightens an existing folder with loose permissions to 0700', async () => {
    const h = join(await freshHome(), 'loose')
    await mkdir(h, { mode: 0o755 })
    await chmod(h, 0o755)
    await start(h)
    expect((await stat(h)).mode & 0o777).toBe(0o700)
  })

  it.runIf(posix)('refuses a shared (sticky) folder and leaves its mode alone', async () => {
    const h = join(await freshHome(), 'shared')
    await mkdir(h)
    await chmod(h, 0o1777)
    await expect(start(h)).rejects.toThrow(/is a shared folder \(mode 1777\).*point ASK_USER_HOME at a private folder/)
    expect((await stat(h)).mode & 0o7777).toBe(0o1777)
  })

  it('gets a fresh token each start', async () => {
    const h = await freshHome()
    const a = await start(h)
    await a.close()
    const b = await start(h)
    expect(b.token).not.toBe(a.token)
  })

  it('replaces a stale file whose pid is dead', async () => {
    const h = await freshHome()
    const pid = await deadPid()
    expect(isProcessAlive(pid)).toBe(false)
    await writeFile(
      join(h, 'endpoint.json'),
      JSON.stringify({ protocol: 1, url: 'ws://127.0.0.1:1/v1/agent', token: 'old', pid }),
    )
    const c = await start(h)
    expect(await readEndpointFile(h)).toMatchObject({ token: c.token, pid: process.pid })
  })

  it('replaces a corrupt file', async () => {
    const h = await freshHome()
    await writeFile(join(h, 'endpoint.json'), '{"protocol":1,')
    const c = await start(h)
    expect(await readEndpointFile(h)).toMatchObject({ token: c.token })
  })

  it('refuses to start while another live companion owns the file', async () => {
    const h = await freshHome()
    const owner = { protocol: 1, url: 'ws://127.0.0.1:4242/v1/agent', token: 'theirs', pid: process.ppid }
    await writeFile(join(h, 'endpoint.json'), JSON.stringify(owner))
    await expect(startCompanion({ home: h, port: 0, onWarning: () => undefined })).rejects.toThrow(
      `another companion is running (pid ${process.ppid}) at ws://127.0.0.1:4242/v1/agent`,
    )
    expect(await readEndpointFile(h)).toMatchObject({ token: 'theirs' })
    const c = await startCompanion({ home: h, port: 0, writeDiscovery: false, onWarning: () => undefined })
    companions.push(c)
    await c.close()
    expect(await readEndpointFile(h)).toMatchObject({ token: 'theirs' })
  })

  it('leaves a file that is no longer ours on close', async () => {
    const h = await freshHome()
    const c = await start(h)
    const theirs = { protocol: 1, url: 'ws://127.0.0.1:1/v1/agent', token: 'replaced', pid: process.pid }
    await writeFile(join(h, 'endpoint.json'), JSON.stringify(theirs))
    await c.close()
    expect(await readEndpointFile(h)).toMatchObject({ token: 'replaced' })
  })
})
