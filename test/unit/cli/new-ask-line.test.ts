// The serve terminal's line per new ask: its format, a hostile agent name made harmless, and the real
// `ask-user serve` printing it when a real agent asks.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AskUserClient, validateAsk } from '../../../agent'
import { run } from '../../../cli/commands/serve'
import { newAskLine, terminalText } from '../../../cli/window/new-ask-line'
import { readEndpointFile } from '../../../core/discovery'
import { memoryIo } from './memory-io'

const at = new Date(2026, 0, 5, 9, 7)

describe('newAskLine', () => {
  it('reads HH:MM new ask from <agent> (<n> pending), local time', () => {
    expect(newAskLine('builder', 3, at)).toBe('09:07 new ask from builder (3 pending)')
  })

  it('removes control, bidi and zero-width characters from a hostile name', () => {
    const hostile =
      'evil\u001b[2J\u001b]0;pwned\u0007\u202Egnp.exe\u202C\u200B\u2066x\u2069\u200F\nsecond\tline\u0000\u009b31m'
    const line = newAskLine(hostile, 1, at)
    expect(line).toBe('09:07 new ask from evil[2J]0;pwnedgnp.exex second line31m (1 pending)')
    expect(line).not.toMatch(/[\p{Cc}\p{Cf}]/u)
  })

  it('cuts a long name and names a blank one', () => {
    expect(terminalText('a'.repeat(100))).toBe(`${'a'.repeat(63)}…`)
    expect(newAskLine('\u200B\u202E', 2, at)).toBe('09:07 new ask from (no name) (2 pending)')
  })
})

describe('ask-user serve', () => {
  let home: string | undefined
  afterEach(async () => {
    if (home !== undefined) await rm(home, { recursive: true, force: true })
  })

  it('prints one line per new ask on its terminal, the agent name made safe', async () => {
    home = await mkdtemp(join(tmpdir(), 'ask-user-serve-line-'))
    const io = memoryIo({ ASK_USER_HOME: home })
    const exit = run(['--port', '0'], io)
    await expect.poll(() => io.out(), { timeout: 15_000 }).toMatch(/\n$/)
    const endpoint = (await readEndpointFile(home))!
    const client = new AskUserClient({
      env: { ASK_USER_URL: endpoint.url, ASK_USER_TOKEN: endpoint.token },
      name: 'build\u202Eer\u001b[31m',
    })
    const asked = client.ask(validateAsk({ questions: [{ id: 'q', question: 'Deploy?' }] })).catch(() => undefined)
    await expect
      .poll(() => io.err(), { timeout: 15_000 })
      .toMatch(/^\d\d:\d\d new ask from builder\[31m \(1 pending\)$/m)
    expect(io.err()).not.toContain(endpoint.token)
    io.abort()
    expect(await exit).toBe(0)
    await asked
    await client.close()
  })
})
