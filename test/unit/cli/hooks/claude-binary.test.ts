// The real Claude Code binary runs the hook `ask-user setup claude-code --hooks` wrote: Claude in a
// pseudo-terminal (`script`), pointed at a scripted stand-in for the Messages API on 127.0.0.1 (no
// login, no model), calls AskUserQuestion; the hook brings the questions to a real companion, the
// window answers, and the tool result Claude sends back holds the person's answer.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../../helpers/companion'
import { installPublished } from '../../../helpers/published-client'
import { runProcess } from '../../../helpers/run-process'
import { connectUi, type UiClient } from '../../../helpers/ui-client'
import { BIN, ensureBuilt } from '../built-cli'

const claude = await installPublished({ pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' })
const SCRIPT = '/usr/bin/script'
const skip = !claude.ok ? claude.reason : !existsSync(SCRIPT) ? 'no /usr/bin/script for a pseudo-terminal' : process.platform === 'win32' ? 'POSIX only' : undefined

const QUESTIONS = {
  questions: [
    { question: 'Which package manager?', header: 'Tooling', options: [{ label: 'pnpm', description: 'Fast' }, { label: 'npm', description: 'Default' }], multiSelect: false },
  ],
}

/** A stand-in for the Messages API: the first turn calls AskUserQuestion, the next one reports the tool result it got. */
function fakeApi(onToolResult: (result: unknown) => void): Promise<Server> {
  const sse = (events: [string, object][]): string => events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join('')
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const parsed = body ? (JSON.parse(body) as { stream?: boolean; model?: string; messages?: { content?: unknown }[] }) : {}
      if (!req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens') || !parsed.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ id: 'msg_x', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 }, input_tokens: 1 }))
        return
      }
      const last = parsed.messages?.at(-1)?.content
      const toolResult = Array.isArray(last) ? last.find((block: { type?: string }) => block?.type === 'tool_result') : undefined
      const message = { id: 'msg_1', type: 'message', role: 'assistant', model: parsed.model, content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } }
      const block: object = toolResult ? { type: 'text', text: '' } : { type: 'tool_use', id: 'toolu_1', name: 'AskUserQuestion', input: {} }
      const delta: object = toolResult ? { type: 'text_delta', text: 'done' } : { type: 'input_json_delta', partial_json: JSON.stringify(QUESTIONS) }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(
        sse([
          ['message_start', { message }],
          ['content_block_start', { index: 0, content_block: block }],
          ['content_block_delta', { index: 0, delta }],
          ['content_block_stop', { index: 0 }],
          ['message_delta', { delta: { stop_reason: toolResult ? 'end_turn' : 'tool_use' }, usage: { output_tokens: 1 } }],
          ['message_stop', {}],
        ]),
      )
      if (toolResult) onToolResult(toolResult)
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

beforeAll(() => ensureBuilt(), 120_000)

describe.skipIf(skip !== undefined)(`Claude Code ${skip ? `(skipped: ${skip})` : '2.1.197'} runs ask-user hook claude-code`, { timeout: 90_000 }, () => {
  let home: string
  let project: string
  let tc: TestCompanion
  let ui: UiClient
  let api: Server
  let session: ChildProcess | undefined
  let toolResult: (value: unknown) => void
  const gotToolResult = new Promise<unknown>((resolve) => (toolResult = resolve))

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'ask-user-claude-pty-home-'))
    project = await mkdtemp(join(tmpdir(), 'ask-user-claude-pty-project-'))
    tc = await startTestCompanion({ home: join(home, '.config', 'ask-user-companion') })
    ui = await connectUi(tc.companion)
    api = await fakeApi((result) => toolResult(result))
  }, 60_000)
  afterAll(async () => {
    if (session?.pid !== undefined) {
      try {
        process.kill(-session.pid, 'SIGKILL')
      } catch {
        /* already gone */
      }
    }
    await ui?.close()
    await tc?.cleanup()
    api?.close()
    // Claude's processes may still be writing into HOME as the kill lands: retry on ENOTEMPTY.
    await rm(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
    await rm(project, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  })

  it('the question card answers Claude’s AskUserQuestion', async () => {
    if (!claude.ok) throw new Error(claude.reason)
    const env = { HOME: home, PATH: [claude.binDir, dirname(process.execPath), '/usr/bin', '/bin'].join(':'), LANG: 'C.UTF-8' }
    const setup = await runProcess(process.execPath, [BIN, 'setup', 'claude-code', '--hooks'], project, env)
    expect(setup.code).toBe(0)
    // What Claude's first run would ask in the terminal, answered ahead: onboarding, the key, the folder's trust.
    const key = 'sk-ant-test-0000000000000000000000'
    const state = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as Record<string, unknown>
    const seeded = { ...state, hasCompletedOnboarding: true, theme: 'dark', customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] }, projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } } }
    await writeFile(join(home, '.claude.json'), JSON.stringify(seeded))
    const port = (api.address() as AddressInfo).port
    session = spawn(SCRIPT, ['-qfec', `${claude.command} 'ask me which package manager'`, '/dev/null'], {
      cwd: project,
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...env, TERM: 'xterm', ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: key, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' },
    })
    const ask = await ui.nextAsk(undefined, 60_000)
    expect(ask.agent).toMatchObject({ name: 'Claude Code', cwd: project })
    expect(ask.questions).toEqual([{ id: 'q1', question: 'Which package manager?', header: 'Tooling', options: [{ label: 'pnpm', description: 'Fast' }, { label: 'npm', description: 'Default' }] }])
    await ui.answer(ask.askId, [{ id: 'q1', selected: ['pnpm'] }])
    const result = JSON.stringify(await gotToolResult)
    expect(result).not.toContain('"is_error":true')
    // Claude's own wording of an answered AskUserQuestion: the answers map reached the tool.
    expect(result).toContain(JSON.stringify('"Which package manager?"="pnpm"').slice(1, -1))
  })
})
