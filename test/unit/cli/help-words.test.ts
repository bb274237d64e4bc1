// What `--help` and the refusals of mistyped names say: true to what the commands do (review M11, L2, L10).
import { describe, expect, it } from 'vitest'
import { closestName, editDistance } from '../../../cli/closest-name'
import { main } from '../../../cli/main'
import { memoryIo } from './memory-io'

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo({})
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}

describe('ask-user --help lists true', () => {
  it('names exactly the keys `schema` prints', async () => {
    const keys = Object.keys(JSON.parse((await cli('schema')).out) as object)
    expect(keys).toEqual(['name', 'title', 'description', 'inputSchema', 'annotations'])
    expect((await cli('--help')).out).toContain(`tool definition {${keys.join(', ')}} as JSON`)
  })

  it("names only options each command's own help documents", async () => {
    const usage = (await cli('--help')).out
    for (const line of usage.split('\n').filter((text) => /^ {2}\S/.test(text))) {
      const [command] = line.trim().split(/\s+/)
      const help = (await cli(command!, '--help')).out
      for (const option of line.match(/--[a-z-]+/g) ?? []) {
        if (option === '--help') continue
        expect(help, `${command} --help mentions ${option}`).toContain(option)
      }
    }
    expect(usage).toMatch(/setup .*--hooks, --askpass, --print, --remove/)
  })

  it('serve --help is as rich as ask --help: options, the link, the folder, exit codes', async () => {
    const { code, out } = await cli('serve', '--help')
    expect(code).toBe(0)
    expect(out).toMatch(/^Usage: ask-user serve \[--port N\] \[--open\]\n\n/)
    for (const words of [
      '--port N',
      '--open',
      'http://127.0.0.1:<port>/#code=<code>',
      '`ask-user open`',
      'ASK_USER_HOME',
      'settings.json',
      'Exit codes: 0 after Ctrl-C, 1 could not start',
    ])
      expect(out).toContain(words)
  })
})

describe('mistyped names: lower-case, with a guess when one is near', () => {
  it('guesses a near command, and points to the list otherwise', async () => {
    expect(await cli('stauts')).toEqual({
      code: 2,
      out: '',
      err: 'Error: unknown command "stauts"; did you mean status?\n',
    })
    expect((await cli('frobnicate')).err).toBe(
      'Error: unknown command "frobnicate"; run `ask-user --help` for the list\n',
    )
  })

  it('guesses options for setup and serve too', async () => {
    expect((await cli('setup', 'codex', '--hoks')).err).toBe("Error: unknown option '--hoks'; did you mean --hooks?\n")
    expect((await cli('serve', '--prot', '1')).err).toMatch(/^Error: unknown option '--prot'; did you mean --port\?\n/)
    expect((await cli('serve', '--x')).err).toMatch(/^Error: unknown option '--x'; run `ask-user serve --help`\n/)
  })

  it('counts insertions, deletions, replacements and swaps as one edit each, and never guesses on a tie or a far name', () => {
    expect(editDistance('questoin', 'question')).toBe(1)
    expect(editDistance('qestion', 'question')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(closestName('titel', ['title', 'timeout'])).toBe('title')
    expect(closestName('ab', ['id', 'ab'])).toBe('ab')
    expect(closestName('xy', ['id'])).toBeUndefined()
    expect(closestName('opn', ['open', 'port'])).toBe('open')
    expect(closestName('bat', ['bar', 'baz'])).toBeUndefined()
  })
})
