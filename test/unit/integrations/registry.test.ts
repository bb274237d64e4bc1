// The registry is the one list of harnesses: every id has one record with one display name and a
// Connect note in both languages, the hook mapping names the agent as the record does, and every
// reader (`ask-user --help`, `setup --help`, `hook --help`, the refusals) lists the same ids.
import { describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { HARNESS_BY_ID, HARNESSES, hooksOf } from '../../../integrations/index'
import { HARNESS_IDS, HOOK_HARNESS_IDS } from '../../../integrations/ids'
import { en } from '../../../renderer/src/i18n/messages'
import { zh } from '../../../renderer/src/i18n/messages-zh'
import { hookFixtures } from '../cli/hooks/fixtures'
import { memoryIo } from '../cli/memory-io'

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo()
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}

describe('the harness registry', () => {
  it('holds one record per id, in the id list’s order, each under its own id', () => {
    expect(HARNESSES.map((harness) => harness.id)).toEqual([...HARNESS_IDS])
    for (const id of HARNESS_IDS) expect(HARNESS_BY_ID[id].id).toBe(id)
  })

  it('gives each harness one display name, distinct from the others', () => {
    const names = HARNESSES.map((harness) => harness.name)
    expect(names).toEqual([
      'Claude Code',
      'Codex',
      'Gemini CLI',
      'Qwen Code',
      'opencode',
      'GitHub Copilot CLI',
      'Cursor',
    ])
    expect(new Set(names).size).toBe(names.length)
  })

  it('names a Connect note that exists in English and in Chinese', () => {
    for (const harness of HARNESSES) {
      expect(en, harness.id).toHaveProperty(harness.connectNote)
      expect(zh, harness.id).toHaveProperty(harness.connectNote)
    }
  })

  it('has hooks exactly for the hook ids, each with fixtures, and the inbox shows the record’s name as the agent', () => {
    expect(HARNESSES.filter((harness) => harness.hooks !== undefined).map((harness) => harness.id)).toEqual([
      ...HOOK_HARNESS_IDS,
    ])
    const fixtures = hookFixtures()
    for (const id of HOOK_HARNESS_IDS) {
      const first = fixtures.find((fixture) => fixture.harness === id)
      expect(first, `test/fixtures/hooks/${id}/`).toBeDefined()
      const work =
        first!.argument !== undefined
          ? hooksOf(id).map(first!.argument, 'argument')
          : hooksOf(id).map(first!.event, 'stdin')
      expect(work.agent.name).toBe(HARNESS_BY_ID[id].name)
    }
  })
})

describe('every reader lists the registry’s ids', () => {
  it('`ask-user --help` lists the set-up ids and the hook ids', async () => {
    const { out } = await run('--help')
    expect(out).toContain(`add ask-user to an MCP client (${HARNESS_IDS.join(', ')})`)
    expect(out).toContain(`the harness's answer JSON out (${HOOK_HARNESS_IDS.join(', ')})`)
  })

  it('`ask-user setup --help` lists every id, the hook ids and the askpass ids', async () => {
    const { code, out } = await run('setup', '--help')
    expect(code).toBe(0)
    expect(out).toContain(`can ask you: ${HARNESS_IDS.join(', ')}.`)
    expect(out).toContain(`(${HOOK_HARNESS_IDS.join(', ')}): adds`)
    expect(out).toContain(
      `--askpass [--print] [--remove]   (${HARNESSES.filter((h) => h.askpass)
        .map((h) => h.id)
        .join(', ')})`,
    )
  })

  it('`ask-user hook --help` lists the hook ids', async () => {
    const { code, out } = await run('hook', '--help')
    expect(code).toBe(0)
    expect(out).toContain(`Usage: ask-user hook <${HOOK_HARNESS_IDS.join('|')}> [EVENT_JSON]`)
  })

  it('refuses an unknown harness by listing the same ids', async () => {
    expect((await run('setup', 'windsurf')).err).toBe(
      `Error: unknown client "windsurf"; one of ${HARNESS_IDS.join(', ')}\n`,
    )
    expect((await run('hook', 'cursor')).err).toBe(
      `Error: unknown harness "cursor"; one of ${HOOK_HARNESS_IDS.join(', ')}\n`,
    )
    expect((await run('setup', 'qwen', '--askpass')).err).toContain('--askpass works with claude-code, codex, shell')
  })
})
