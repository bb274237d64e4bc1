import { beforeAll, describe, expect, it } from 'vitest'
import { createAskUserQuestionTool } from '../../../agent/tool-definition'
import { main } from '../../../cli/main'
import { ensureBuilt, runCli } from './built-cli'
import { memoryIo } from './memory-io'

const { name, title, description, inputSchema, annotations } = createAskUserQuestionTool()
const expected = `${JSON.stringify({ name, title, description, inputSchema, annotations }, null, 2)}\n`

describe('ask-user schema', () => {
  it('prints {name, description, inputSchema} as pretty JSON (in-process)', async () => {
    const io = memoryIo()
    expect(await main(['schema'], io)).toBe(0)
    expect(io.out()).toBe(expected)
    const printed = JSON.parse(io.out()) as { inputSchema: { required: string[] } }
    expect(printed.inputSchema.required).toEqual(['questions'])
    expect(io.out()).not.toContain('"additionalProperties": {}')
    expect(io.out().match(/"additionalProperties": true/g)).toHaveLength(3)
    expect(JSON.parse(io.out())).toMatchObject({
      title: 'Ask the user',
      annotations: {
        title: 'Ask the user',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    })
    expect(io.out()).not.toContain('$ref')
    expect(io.out()).not.toContain('$schema')
  })

  it('refuses extra arguments with exit 2 and prints help on --help', async () => {
    const bad = memoryIo()
    expect(await main(['schema', 'extra'], bad)).toBe(2)
    expect(bad.err()).toBe('Error: unexpected argument "extra"; run `ask-user schema --help`\n')
    expect(bad.out()).toBe('')
    const help = memoryIo()
    expect(await main(['schema', '--help'], help)).toBe(0)
    expect(help.out()).toMatch(/^Usage: ask-user schema/)
  })

  describe('as the built bin', () => {
    beforeAll(() => ensureBuilt(), 120_000)

    it('node bin/ask-user.js schema prints the same bytes', async () => {
      const result = await runCli(['schema'], {}).done
      expect(result).toMatchObject({ code: 0, stderr: '' })
      expect(result.stdout).toBe(expected)
    })

    it('--help lists the agent-side commands', async () => {
      const result = await runCli(['--help'], {}).done
      expect(result.code).toBe(0)
      for (const command of ['schema', 'ask', 'mcp', 'status'])
        expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'))
    })
  })
})
