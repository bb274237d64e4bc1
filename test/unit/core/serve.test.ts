import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseServeArgs, run } from '../../../cli/commands/serve'
import type { CliIo } from '../../../cli/io'
import { readEndpointFile } from '../../../core/discovery'
import { connectUi } from '../../helpers/ui-client'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-serve-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

function fakeIo(signal: AbortSignal): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk) => (out += String(chunk)))
  stderr.on('data', (chunk) => (err += String(chunk)))
  return { stdout, stderr, stdin: new PassThrough(), env: { ASK_USER_HOME: home }, cwd: home, signal, out: () => out, err: () => err }
}

describe('ask-user serve', () => {
  it('prints exactly the page URL, serves the page and the UI channel, and closes on abort', async () => {
    const controller = new AbortController()
    const io = fakeIo(controller.signal)
    const exit = run(['--port', '0'], io)
    await expect.poll(() => io.out(), { timeout: 5000 }).toMatch(/\n$/)
    const match = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43})\n$/.exec(io.out())
    expect(match).not.toBeNull()
    const [, port, token] = match!
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await readEndpointFile(home)).toMatchObject({ url: `ws://127.0.0.1:${port}/v1/agent`, token })
    const ui = await connectUi({ uiUrl: `ws://127.0.0.1:${port}/v1/ui`, token: token! }, { headers: { Origin: `http://127.0.0.1:${port}` } })
    const closed = new Promise<number>((resolve) => ui.socket.once('close', (code) => resolve(code)))
    controller.abort()
    expect(await exit).toBe(0)
    expect(await closed).toBe(1001)
    expect(await readEndpointFile(home)).toBeUndefined()
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow()
    expect(io.out().split('\n')).toHaveLength(2)
  })

  it('rejects bad flags with exit 2 and an Error: line', async () => {
    for (const args of [['--port'], ['--port', 'abc'], ['--port', '70000'], ['--bogus']]) {
      const io = fakeIo(new AbortController().signal)
      expect(await run(args, io)).toBe(2)
      expect(io.err()).toMatch(/^Error: /)
      expect(io.out()).toBe('')
    }
  })

  it('parses its flags', () => {
    expect(parseServeArgs(['--port=8080', '--open'])).toEqual({ port: 8080, open: true })
    expect(parseServeArgs([])).toEqual({ open: false })
  })

  it('exits 1 with a clear error when another live companion owns the home folder', async () => {
    const owner = { protocol: 1, url: 'ws://127.0.0.1:4242/v1/agent', token: 'theirs', pid: process.ppid }
    await writeFile(join(home, 'endpoint.json'), JSON.stringify(owner))
    const io = fakeIo(new AbortController().signal)
    expect(await run([], io)).toBe(1)
    expect(io.err()).toBe(`Error: another companion is running (pid ${process.ppid}) at ws://127.0.0.1:4242/v1/agent\n`)
    expect(io.out()).toBe('')
  })
})
