// `ask-user status` in-process: a dead pid in endpoint.json is named as such; a running companion's
// report says how to open its window; neither ever prints the token or the window credential.
import { readlinkSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { run } from '../../../cli/commands/status'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { memoryIo } from './memory-io'

const TOKEN = 'T'.repeat(43)
const homes: string[] = []
let running: TestCompanion | undefined

afterEach(async () => {
  await running?.cleanup()
  running = undefined
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })))
})

async function homeWithEndpoint(file: object): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'ask-user-status-'))
  homes.push(home)
  await chmod(home, 0o700)
  await writeFile(join(home, 'endpoint.json'), JSON.stringify(file), { mode: 0o600 })
  return home
}

describe.skipIf(process.platform === 'win32')('ask-user status', () => {
  it.each([
    ['with the pid namespace', { pidNamespace: process.platform === 'linux' ? readlinkSync('/proc/self/ns/pid') : '' }],
    ['without one (an older file: the dial fails first)', {}],
  ])('a dead pid in endpoint.json is named as stale, %s', async (_, extra) => {
    const gone = await startTestCompanion({ writeDiscovery: false })
    const url = gone.companion.agentUrl
    await gone.cleanup()
    const home = await homeWithEndpoint({ protocol: 1, url, token: TOKEN, pid: 999999, ...extra })
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await run([], io)).toBe(4)
    expect(io.out()).toBe('')
    expect(io.err()).toBe(
      `Error: stale ${join(home, 'endpoint.json')}: pid 999999 is not running; start the Ask User Companion app, or run \`ask-user serve\`\n`,
    )
    expect(io.err()).not.toContain(TOKEN)
  })

  it('a running companion: the report says to run `ask-user open`, and holds no credential', async () => {
    running = await startTestCompanion()
    const io = memoryIo({ ASK_USER_HOME: running.home })
    expect(await run([], io)).toBe(0)
    expect(io.out()).toContain(
      'pending asks: 0\nagents connected: 0\nwindows open: 0\nto answer: run `ask-user open`\n',
    )
    expect(io.out()).not.toContain(running.companion.token)
    expect(io.out()).not.toContain(running.companion.windowCredential())
    expect(io.err()).toBe('')
  })
})
