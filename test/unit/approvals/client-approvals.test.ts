// client.requestApproval and client.notify against a real companion on port 0, with a scripted window.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../agent/client'
import type { ApprovalRequest } from '../../../shared/approval'
import type { AskUserError } from '../../../shared/error-codes'
import { startTestCompanion } from '../../helpers/companion'
import { connectUi, type UiClient } from '../../helpers/ui-client'

const edit: ApprovalRequest = {
  tool: 'Edit',
  harness: 'claude-code',
  action: { kind: 'file', path: 'src/app.ts', operation: 'edit', diff: '-old\n+new' },
}

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(): Promise<{ ui: UiClient; client: AskUserClient; history: () => Promise<unknown[]> }> {
  const tc = await startTestCompanion()
  cleanups.push(tc.cleanup)
  const ui = await connectUi(tc.companion)
  cleanups.push(() => ui.close())
  const client = new AskUserClient({ env: { ASK_USER_HOME: tc.home }, name: 'Claude Code' })
  cleanups.push(() => client.close())
  return { ui, client, history: () => tc.companion.history() }
}

const failure = (promise: Promise<unknown>): Promise<AskUserError> =>
  promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error as AskUserError,
  )

describe('client.requestApproval', () => {
  it('resolves with the decision the person made in the window', async () => {
    const { ui, client } = await setup()
    const decided = client.requestApproval(edit, { title: 'refactor' })
    const ask = await ui.nextAsk()
    expect(ask).toMatchObject({ title: 'refactor', approval: edit, questions: [] })
    expect(await ui.decide(ask.askId, { behavior: 'deny', message: 'not this file' })).toMatchObject({
      type: 'accepted',
    })
    expect(await decided).toEqual({ behavior: 'deny', message: 'not this file' })
  })

  it('fails ASK_CANCELLED on dismissal and ASK_ABORTED on abort (the card is withdrawn)', async () => {
    const { ui, client } = await setup()
    const dismissed = failure(client.requestApproval(edit))
    const first = await ui.nextAsk()
    await ui.dismiss(first.askId)
    expect((await dismissed).code).toBe('ASK_CANCELLED')

    const controller = new AbortController()
    const aborted = failure(client.requestApproval(edit, { signal: controller.signal }))
    const second = await ui.nextAsk()
    controller.abort()
    expect((await aborted).code).toBe('ASK_ABORTED')
    expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === second.askId)).toMatchObject({
      outcome: 'aborted',
    })
  })

  it('refuses a malformed request before sending, and fails NO_PROVIDER with no companion', async () => {
    const { ui, client } = await setup()
    const bad = await failure(
      client.requestApproval({ tool: 'Bash', action: { kind: 'command' } } as unknown as ApprovalRequest),
    )
    expect(bad).toMatchObject({
      code: 'INVALID_ARGS',
      message: 'invalid arguments: missing required property "approval.action.command"',
    })
    expect(ui.frames.filter((f) => f.type === 'question/added')).toEqual([])
    const home = await mkdtemp(join(tmpdir(), 'ask-user-none-'))
    cleanups.push(() => rm(home, { recursive: true, force: true }))
    const lonely = new AskUserClient({ env: { ASK_USER_HOME: home } })
    expect((await failure(lonely.requestApproval(edit))).code).toBe('NO_PROVIDER')
    expect((await failure(lonely.notify({ kind: 'info', text: 'hi' }))).code).toBe('NO_PROVIDER')
  })
})

describe('client.notify', () => {
  it('checks the notice and sends it without waiting for a reply', async () => {
    const { client } = await setup()
    await expect(
      client.notify({ kind: 'turn-complete', text: 'Codex finished its turn' }, { title: 'tests' }),
    ).resolves.toBeUndefined()
    expect(await failure(client.notify({ kind: 'loud', text: 'x' } as never))).toMatchObject({ code: 'INVALID_ARGS' })
  })
})
