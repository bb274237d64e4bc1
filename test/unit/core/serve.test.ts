import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseServeArgs, run } from '../../../cli/commands/serve'
import type { CliIo } from '../../../cli/io'
import { readEndpointFile } from '../../../core/discovery'
import { connectUi } from '../../helpers/ui-client'
import { WAIT_MS } from '../../helpers/waits'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-serve-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

/** Redeems a page link's code as the served page does. */
async function redeem(port: string, code: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/window/redeem`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ code }),
  })
  return { status: response.status, body: await response.json() }
}

function fakeIo(signal: AbortSignal): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk) => (out += String(chunk)))
  stderr.on('data', (chunk) => (err += String(chunk)))
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { ASK_USER_HOME: home },
    cwd: home,
    signal,
    out: () => out,
    err: () => err,
  }
}

describe('ask-user serve', () => {
  it('prints a one-time page link (no secret), serves the page, signs a window in from the link, and closes on abort', async () => {
    const controller = new AbortController()
    const io = fakeIo(controller.signal)
    const exit = run(['--port', '0'], io)
    await expect.poll(() => io.out(), { timeout: WAIT_MS }).toMatch(/\n$/)
    const match = /^http:\/\/127\.0\.0\.1:(\d+)\/#code=([A-Za-z0-9_-]{32})\n$/.exec(io.out())
    expect(match).not.toBeNull()
    const [, port, code] = match!
    const endpoint = await readEndpointFile(home)
    expect(io.out()).not.toContain(endpoint!.token)
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(endpoint).toMatchObject({ url: `ws://127.0.0.1:${port}/v1/agent` })
    const redeemed = await redeem(port!, code!)
    expect(redeemed.status).toBe(200)
    const { credential } = redeemed.body as { credential: string }
    expect(credential).not.toBe(endpoint!.token)
    const ui = await connectUi(
      { uiUrl: `ws://127.0.0.1:${port}/v1/ui`, token: credential },
      { headers: { Origin: `http://127.0.0.1:${port}` } },
    )
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
    expect(io.err()).toBe(
      `Error: another companion is running (pid ${process.ppid}) at ws://127.0.0.1:4242/v1/agent; run \`ask-user open\` for its window\n`,
    )
    expect(io.err()).not.toContain('theirs')
    expect(io.out()).toBe('')
  })
})
