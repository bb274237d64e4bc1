// One Claude Code session is one agent in the inbox, whether it asks through the model's
// ask_user_question (`ask-user mcp`) or through its hooks (the hook tool of the same server, or
// `ask-user hook claude-code`): the built CLI over stdio with the SDK's client named as Claude Code
// names itself, the session id where Claude Code puts it (the environment it starts the server with,
// or a call's `_meta`), a real companion, and the asks grouped by the one key the list uses.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hookToolInput } from '../../../../integrations/claude-code/hook-tool'
import { HOOK_TOOL_FLAG, HOOK_TOOL_NAME } from '../../../../integrations/claude-code/hook-tool-names'
import { agentKey } from '../../../../shared/agent-key'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { hookFixtures } from '../hooks/fixtures'
import { BIN, ROOT, ensureBuilt } from '../built-cli'

const SESSION = '3f2a9c1e-77aa-4b1e-9d0f-2c5e8a1b6d42'
const approvalEvent = hookFixtures().find((f) => f.harness === 'claude-code' && f.name === 'permission-bash-allow')!
  .event as Record<string, unknown>
const question = { questions: [{ id: 'db', question: 'Which database?', options: [{ label: 'a' }, { label: 'b' }] }] }

/** The hook's `input` as Claude substitutes it (strings as they are, objects as JSON). */
function hookArguments(event: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(hookToolInput()).map(([key, template]) => {
      const value = event[template.slice(2, -1)]
      return [key, value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)]
    }),
  )
}

let tc: TestCompanion
let ui: UiClient
const clients: Client[] = []

/** `ask-user mcp --claude-code-hooks` started as Claude Code starts it: `env` added, the client named `name`. */
async function server(env: Record<string, string>, name = 'claude-code'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', HOOK_TOOL_FLAG],
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: tc.home, ...env },
    stderr: 'ignore',
  })
  const client = new Client({ name, version: '2.1.332' })
  await client.connect(transport)
  clients.push(client)
  return client
}

beforeAll(async () => {
  await ensureBuilt()
  tc = await startTestCompanion()
  ui = await connectUi(tc.companion)
}, 120_000)

afterAll(async () => {
  for (const client of clients) await client.close()
  await ui?.close()
  await tc?.cleanup()
})

describe('one Claude Code session, one agent', () => {
  it('the model’s ask_user_question and the session’s hook approval land in one group, named as the hooks name it', async () => {
    const claude = await server({ CLAUDE_CODE_SESSION_ID: SESSION })
    const modelCall = claude.callTool({ name: 'ask_user_question', arguments: question })
    const modelAsk = await ui.nextAsk(undefined, 15_000)
    const hookCall = claude.callTool({
      name: HOOK_TOOL_NAME,
      arguments: hookArguments({ ...approvalEvent, session_id: SESSION }),
    })
    const hookAsk = await ui.nextAsk(undefined, 15_000)
    expect(modelAsk.agent).toMatchObject({ name: 'Claude Code', session: SESSION, title: 'session 3f2a9c1e' })
    expect(agentKey(modelAsk.agent)).toBe(agentKey(hookAsk.agent))
    await ui.answer(modelAsk.askId, [{ id: 'db', selected: ['a'] }])
    await ui.dismiss(hookAsk.askId)
    await Promise.all([modelCall, hookCall])
  }, 60_000)

  it('a call’s own `_meta` session wins over the environment’s (the session after /clear)', async () => {
    const claude = await server({ CLAUDE_CODE_SESSION_ID: 'the-session-it-started-in' })
    const call = claude.callTool({
      name: 'ask_user_question',
      arguments: question,
      _meta: { 'claudecode/sessionId': SESSION },
    })
    const ask = await ui.nextAsk(undefined, 15_000)
    expect(ask.agent).toMatchObject({ name: 'Claude Code', session: SESSION })
    await ui.dismiss(ask.askId)
    await call
  }, 60_000)

  it('without a session id, or from another client, the agent is named as the client names itself', async () => {
    const unknown = await server({})
    const other = await server({ CLAUDE_CODE_SESSION_ID: SESSION }, 'cursor-vscode')
    for (const [client, name] of [
      [unknown, 'claude-code'],
      [other, 'cursor-vscode'],
    ] as const) {
      const call = client.callTool({ name: 'ask_user_question', arguments: question })
      const ask = await ui.nextAsk(undefined, 15_000)
      expect(ask.agent.name).toBe(name)
      expect(ask.agent.session).toBeUndefined()
      await ui.dismiss(ask.askId)
      await call
    }
  }, 60_000)
})
