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
      questions: [{ id: 't', question: 'Which?', multiSelect: true, options: [{ label: 'a', description: 'first' }, { label: 'b' }] }],
      agent: { title: 'refactor' },
    })
    const ask = await ui.nextAsk()
    expect(ask.title).toBe('refactor')
    expect(ask.agent.name).toBe('harness')
    expect(ask.questions).toEqual([{ id: 't', question: 'Which?', options: [{ label: 'a', description: 'first' }, { label: 'b' }], multi_select: true }])
    await ui.answer(ask.askId, [{ id: 't', selected: ['a', 'b'] }])
    expect(await answer).toEqual({ answers: [{ id: 't', selected: ['a', 'b'] }] })
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
    const result = registration.tool.execute({ questions: [{ id: 'pkg', question: 'Which?', options: [{ label: 'pnpm' }] }] })
    const ask = await ui.nextAsk()
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
    expect(await result).toEqual({ isError: false, content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}' }] })
  })

  it('dispose() unregisters and aborts what is pending; a host seam with a provider refuses a second', async () => {
    const { tc, ui, env } = await setup()
    const interaction = new UserInteraction()
    const registration = registerAskUserCompanion({ interaction, client: { env } })
    expect(() => registerAskUserCompanion({ interaction })).toThrow(expect.objectContaining({ code: 'DUPLICATE_PROVIDER' }))
    const result = registration.tool.execute({ questions: [{ id: 'q', question: 'Q?' }] })
    await ui.nextAsk()
    await registration.dispose()
    expect(await result).toMatchObject({ isError: true, error: { code: 'ASK_ABORTED' } })
    expect(interaction.hasProvider).toBe(false)
    await ui.nextFrame((f) => f.type === 'question/resolved')
    expect(tc.companion.pending()).toEqual([])
  })
})
