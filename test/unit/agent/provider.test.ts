import { afterEach, describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../agent/client'
import { createCompanionProvider, registerAskUserCompanion } from '../../../agent/provider'
import { UserInteraction } from '../../../agent/user-interaction'
import { startTestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup() {
  const tc = await startTestCompanion()
  cleanups.push(tc.cleanup)
  const ui = await connectUi(tc.companion)
  cleanups.push(() => ui.close())
  return { tc, ui, env: { ASK_USER_HOME: tc.home } }
}

describe('createCompanionProvider', () => {
  it('sends seam questions with multi_select and returns upstream-shaped answers', async () => {
    const { ui, env } = await setup()
    const provider = createCompanionProvider({ env, name: 'harness' })
    cleanups.push(() => provider.close())
    const answer = provider.ask({
      questions: [
        {
          id: 't',
          question: 'Which?',
          multiSelect: true,
          options: [{ label: 'a', description: 'first' }, { label: 'b' }],
        },
      ],
      agent: { title: 'refactor' },
    })
    const ask = await ui.nextAsk()
    expect(ask.title).toBe('refactor')
    expect(ask.agent.name).toBe('harness')
    expect(ask.questions).toEqual([
      {
        id: 't',
        question: 'Which?',
        options: [{ label: 'a', description: 'first' }, { label: 'b' }],
        multi_select: true,
      },
    ])
    await ui.answer(ask.askId, [{ id: 't', selected: ['a', 'b'] }])
    expect(await answer).toEqual({ answers: [{ id: 't', selected: ['a', 'b'] }] })
  })

  it("forwards the seam's detail and intent (set by host code, not the model)", async () => {
    const { ui, env } = await setup()
    const provider = createCompanionProvider({ env })
    cleanups.push(() => provider.close())
    const answer = provider.ask({
      questions: [
        {
          id: 'plan',
          question: 'Approve?',
          detail: '# Plan\n- step',
          options: [{ label: 'Approve' }, { label: 'Revise' }],
          intent: { kind: 'plan-review', approve: 'Approve' },
        },
      ],
    })
    const ask = await ui.nextAsk()
    expect(ask.questions).toEqual([
      {
        id: 'plan',
        question: 'Approve?',
        detail: '# Plan\n- step',
        options: [{ label: 'Approve' }, { label: 'Revise' }],
        intent: { kind: 'plan-review', approve: 'Approve' },
      },
    ])
    await ui.answer(ask.askId, [{ id: 'plan', selected: ['Approve'] }])
    expect(await answer).toEqual({ answers: [{ id: 'plan', selected: ['Approve'] }] })
  })

  it('refuses a plan-review approve that is not an option label with INVALID_ARGS', async () => {
    const provider = createCompanionProvider({ env: { ASK_USER_HOME: '/nonexistent/ask-user-home' } })
    const refused = provider.ask({
      questions: [{ id: 'p', question: '?', options: [{ label: 'a' }], intent: { kind: 'plan-review', approve: 'b' } }],
    })
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_ARGS',
      message:
        'invalid arguments: "questions[0].intent.approve" must be one of the question\'s option labels; "b" is not',
    })
  })

  it('uses a given client as is', () => {
    const client = new AskUserClient()
    expect(createCompanionProvider(client).client).toBe(client)
  })
})

describe('registerAskUserCompanion (one call for a Harness-style host)', () => {
  it('registers the provider and returns the tool bound to the seam', async () => {
    const { ui, env } = await setup()
    const registration = registerAskUserCompanion({ client: { env } })
    cleanups.push(() => registration.dispose())
    expect(registration.interaction.hasProvider).toBe(true)
    expect(registration.tool.name).toBe('ask_user_question')
    const result = registration.tool.execute({
      questions: [{ id: 'pkg', question: 'Which?', options: [{ label: 'pnpm' }] }],
    })
    const ask = await ui.nextAsk()
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
    expect(await result).toEqual({
      isError: false,
      content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}' }],
    })
  })

  it("the bound tool takes the model's input: detail, intent and other question keys are dropped, option keys kept", async () => {
    const { ui, env } = await setup()
    const registration = registerAskUserCompanion({ client: { env } })
    cleanups.push(() => registration.dispose())
    const result = registration.tool.execute({
      questions: [
        {
          id: 'q',
          question: 'Go?',
          detail: 'hidden',
          intent: { kind: 'plan-review', approve: 'yes' },
          x: 1,
          options: [{ label: 'yes', note: 2 }],
        },
      ],
    })
    const ask = await ui.nextAsk()
    expect(ask.questions).toEqual([{ id: 'q', question: 'Go?', options: [{ label: 'yes' }] }])
    await ui.answer(ask.askId, [{ id: 'q', selected: ['yes'] }])
    expect(await result).toMatchObject({ isError: false })
  })

  it('dispose() unregisters and aborts what is pending; a host seam with a provider refuses a second', async () => {
    const { tc, ui, env } = await setup()
    const interaction = new UserInteraction()
    const registration = registerAskUserCompanion({ interaction, client: { env } })
    expect(() => registerAskUserCompanion({ interaction })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_PROVIDER' }),
    )
    const result = registration.tool.execute({ questions: [{ id: 'q', question: 'Q?' }] })
    await ui.nextAsk()
    await registration.dispose()
    expect(await result).toMatchObject({ isError: true, error: { code: 'ASK_ABORTED' } })
    expect(interaction.hasProvider).toBe(false)
    await ui.nextFrame((f) => f.type === 'question/resolved')
    expect(tc.companion.pending()).toEqual([])
  })
})
