// The whole pairing through the built CLI as two processes: `relay pair` on the desktop and `relay join`
// on the "new device" (another companion home), the line carried from one's stdout to the other's stdin.
// The secret is never in either process's argv (/proc/<pid>/cmdline) nor on stderr.
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import { parsePairLine } from '../../../../relay/pairing'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { ensureBuilt, runCli } from '../built-cli'
import { memoryIo } from '../memory-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay pairing process tests: ${skip}`)

/** Resolves with the first match of `pattern` in the child's stdout so far (awaits its data events). */
function stdoutMatch(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let seen = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8')
      const match = pattern.exec(seen)
      if (match) {
        child.stdout!.off('data', onData)
        resolve(match)
      }
    }
    child.stdout!.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`exited (${code}) before printing ${pattern}; stdout so far:\n${seen}`)),
    )
  })
}

describe.skipIf(skip)('relay pair and relay join as two processes', () => {
  let root: string
  let server: RunningNatsServer

  beforeAll(async () => {
    await ensureBuilt()
    root = await mkdtemp(join(tmpdir(), 'relay-cli-procs-'))
    const port = await freePort()
    const args = [
      'relay',
      'init',
      '--self-hosted',
      join(root, 'relay'),
      '--origin',
      'https://inbox.example',
      '--loopback',
    ]
    args.push('--client-port', String(port), '--ws-port', String(await freePort()), '--url', `nats://127.0.0.1:${port}`)
    expect(await main(args, memoryIo({ ASK_USER_HOME: join(root, 'desk') }))).toBe(0)
    server = await startNatsServer(join(root, 'relay', 'nats-server.conf'))
  }, 180_000)
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('pairs through stdin/stdout with the same code on both terminals and no secret in argv', async () => {
    const desk = runCli(['relay', 'pair'], { ASK_USER_HOME: join(root, 'desk') })
    const line = (await stdoutMatch(desk.child, /^(AUP1:\S+)$/m))[1]!
    const secret = parsePairLine(line, Date.now()).secret
    const laptop = runCli(['relay', 'join', '--name', 'laptop'], { ASK_USER_HOME: join(root, 'laptop') })
    const laptopCode = stdoutMatch(laptop.child, /Confirmation code: (\d{6})/)
    laptop.child.stdin!.end(`${line}\n`)
    const [deskCode, joinCode] = await Promise.all([stdoutMatch(desk.child, /Confirmation code: (\d{6})/), laptopCode])
    expect(deskCode[1]).toBe(joinCode[1])
    for (const pid of [desk.child.pid, laptop.child.pid]) {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      expect(argv).toContain('relay')
      expect(argv).not.toContain(secret)
      expect(argv).not.toContain('AUP1:')
    }
    desk.child.stdin!.end('yes\n')
    const [deskDone, laptopDone] = await Promise.all([desk.done, laptop.done])
    expect({ code: deskDone.code, stderr: deskDone.stderr }).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/Paired "laptop"\. Roster version 2\./),
    })
    expect({ code: laptopDone.code, stderr: laptopDone.stderr }).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/Joined as "laptop"\. Roster version 2\./),
    })
    for (const stderr of [deskDone.stderr, laptopDone.stderr]) {
      expect(stderr).not.toContain(secret)
      expect(stderr).not.toContain('AUP1:')
    }
  }, 120_000)
})
