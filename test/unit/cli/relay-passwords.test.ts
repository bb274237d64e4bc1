// `ask-user relay passwords allow|deny|list` on this desk (the setting never goes to the relay; the server
// is there for add-agent, which adds the agent to the relay's roster): stored 0600 by roster id, refused
// for a name that is not an agent of the root-verified roster, a damaged file reported, a home without a
// relay refused.
import { lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { REMOTE_PASSWORDS_FILE, RemotePasswordsSchema } from '../../../relay/home/remote-passwords'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { memoryIo } from './memory-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay passwords tests: ${skip}`)

describe.skipIf(skip)('ask-user relay passwords', () => {
  let root: string
  let home: string
  let server: RunningNatsServer | undefined
  const run = async (...args: string[]) => {
    const io = memoryIo({ ASK_USER_HOME: home })
    const code = await main(['relay', 'passwords', ...args], io)
    return { code, out: io.out(), err: io.err() }
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-passwords-cli-'))
    home = join(root, 'home')
    const port = await freePort()
    const args = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://inbox.example']
    args.push('--loopback', '--client-port', String(port), '--ws-port', String(await freePort()))
    const init = memoryIo({ ASK_USER_HOME: home })
    expect(await main([...args, '--url', `nats://127.0.0.1:${port}`], init)).toBe(0)
    server = await startNatsServer(/start: nats-server -c (\S+)/.exec(init.out())![1]!)
    const out = join(root, 'builder.json')
    expect(await main(['relay', 'add-agent', 'builder', '--out', out], memoryIo({ ASK_USER_HOME: home }))).toBe(0)
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('allows, lists and denies an agent of the roster; the file is 0600 and names it by roster id', async () => {
    expect(await run('list')).toEqual({
      code: 0,
      out: '',
      err: 'No agent may ask for passwords through the relay on this desk.\n',
    })
    const allowed = await run('allow', 'builder')
    expect(allowed).toEqual({
      code: 0,
      out: '',
      err: 'This desk may now answer password questions of "builder" through the relay; the answer is sealed to the agent alone.\n',
    })
    const path = join(home, REMOTE_PASSWORDS_FILE)
    expect((await lstat(path)).mode & 0o777).toBe(0o600)
    const stored = RemotePasswordsSchema.parse(JSON.parse(await readFile(path, 'utf8')))
    expect(stored.agents.map((a) => a.name)).toEqual(['builder'])
    expect(stored.agents[0]!.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect((await run('list')).out).toMatch(/^builder\tallowed /)
    expect((await run('allow', 'builder')).err).toMatch(/^Nothing changed: /)
    expect(await run('deny', 'builder')).toMatchObject({
      code: 0,
      err: 'Neither this desk nor any phone answers password questions of "builder" through the relay any more.\n',
    })
    expect(RemotePasswordsSchema.parse(JSON.parse(await readFile(path, 'utf8'))).agents).toEqual([])
  })

  it('refuses a name the roster does not list as an agent (the desktop itself included), and bad usage', async () => {
    expect(await run('allow', 'nobody')).toEqual({
      code: 1,
      out: '',
      err: 'Error: RELAY_NO_SUCH_AGENT: The roster lists no agent called "nobody"; run `ask-user relay devices` for the names (on a paired device, `ask-user relay renew` first fetches the newest roster).\n',
    })
    const devices = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'devices'], devices)).toBe(0)
    const desktop = /^(\S+)\tdesktop\t/m.exec(devices.out())![1]!
    expect((await run('allow', desktop)).err).toContain('RELAY_NO_SUCH_AGENT')
    for (const args of [['allow'], ['block', 'builder'], ['allow', 'builder', 'extra'], ['list', 'builder']])
      expect((await run(...args)).code).toBe(2)
    // A phone: named by the roster's device names; none is paired here. Both ways at once is bad usage.
    expect(await run('allow', 'builder', '--on', 'my-phone')).toEqual({
      code: 1,
      out: '',
      err: 'Error: RELAY_NO_SUCH_DEVICE: The roster lists no paired device called "my-phone"; run `ask-user relay devices` for the names.\n',
    })
    expect((await run('allow', 'builder', '--on', desktop)).err).toContain('RELAY_NO_SUCH_DEVICE')
    expect((await run('deny', 'builder', '--phones')).err).toContain('RELAY_NO_SUCH_DEVICE')
    expect((await run('allow', 'builder', '--on', 'my-phone', '--phones')).code).toBe(2)
    expect((await run('list', '--phones')).code).toBe(2)
    // Nothing was written by a refused change.
    expect((await run('list')).err).toBe('No agent may ask for passwords through the relay on this desk.\n')
  })

  it('reports a damaged file instead of guessing', async () => {
    await writeFile(join(home, REMOTE_PASSWORDS_FILE), '{"v":1,"agents":"all"}', { mode: 0o600 })
    expect(await run('list')).toEqual({
      code: 1,
      out: '',
      err: `Error: RELAY_BAD_STATE: ${REMOTE_PASSWORDS_FILE} in the companion's home is damaged; delete it and allow the agents again.\n`,
    })
    await rm(join(home, REMOTE_PASSWORDS_FILE))
  })

  it('refuses a home without a relay', async () => {
    const io = memoryIo({ ASK_USER_HOME: join(root, 'empty') })
    expect(await main(['relay', 'passwords', 'allow', 'builder'], io)).toBe(1)
    expect(io.err()).toMatch(/^Error: RELAY_NOT_INITIALIZED: /)
  })
})
