// Our provider and tool against upstream's two seam contracts (test/upstream/contracts.ts, as
// ../shared/UPSTREAM.md describes them): codes carried through upstream's error class, upstream's
// argument wording, and the registration example of each era working end to end.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AskUserClientOptions } from '../../../agent/client'
import { createCompanionProvider } from '../../../agent/provider'
import { executeAskUserQuestion } from '../../../agent/tool-definition'
import { startTestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { HarnessError, rc8, registryFailure, seed, upstreamToolAsk } from '../../upstream/contracts'
import { registerOnRc8, registerOnSeed, registerToolOnRc8 } from '../../upstream/registration'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function companion() {
  const tc = await startTestCompanion()
  cleanups.push(tc.cleanup)
  const ui = await connectUi(tc.companion)
  cleanups.push(() => ui.close())
  return { ui, client: { env: { ASK_USER_HOME: tc.home }, name: 'deepseek-harness' } }
}

async function nobodyHome() {
  const home = await mkdtemp(join(tmpdir(), 'ask-user-no-companion-'))
  cleanups.push(() => rm(home, { recursive: true, force: true }))
  return { env: { ASK_USER_HOME: home } }
}

const args = {
  questions: [{ id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }],
}

const eras = [
  {
    era: 'rc.8 (ctx.userQuestions)',
    Service: rc8.UserQuestionService,
    SeamError: rc8.UserQuestionError,
    name: 'UserQuestionError',
    register: (userQuestions: InstanceType<typeof rc8.UserQuestionService>, client: AskUserClientOptions) =>
      registerOnRc8({ userQuestions }, client),
  },
  {
    era: 'seed (ctx.userInteraction)',
    Service: seed.UserInteractionService,
    SeamError: seed.UserInteractionError,
    name: 'UserInteractionError',
    register: (userInteraction: InstanceType<typeof seed.UserInteractionService>, client: AskUserClientOptions) =>
      registerOnSeed({ userInteraction }, client),
  },
]

describe.each(eras)('upstream seam, $era', ({ Service, SeamError, name, register }) => {
  it("the registration example answers through upstream's own tool, byte for byte", async () => {
    const { ui, client } = await companion()
    const service = new Service()
    const unregister = register(service, client)
    cleanups.push(async () => unregister())
    const result = upstreamToolAsk(service, args)
    const ask = await ui.nextAsk()
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
    expect(await result).toEqual({ ok: true, text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}' })
  })

  it("our errors reach upstream's registry with their codes: ASK_CANCELLED, ASK_ABORTED", async () => {
    const { ui, client } = await companion()
    const service = new Service()
    const provider = createCompanionProvider(client, { hostError: SeamError })
    cleanups.push(() => provider.close())
    service.registerProvider(provider)
    const dismissed = upstreamToolAsk(service, args)
    await ui.dismiss((await ui.nextAsk()).askId)
    expect(await dismissed).toEqual({
      isError: true,
      text: 'Error: the user cancelled ask_user_question',
      error: { message: 'the user cancelled ask_user_question', info: { name, code: 'ASK_CANCELLED' } },
    })
    const controller = new AbortController()
    const aborted = upstreamToolAsk(service, args, controller.signal)
    await ui.nextAsk()
    controller.abort()
    expect(await aborted).toMatchObject({ isError: true, error: { info: { name, code: 'ASK_ABORTED' } } })
  })

  it('NO_PROVIDER (no companion) keeps its code; without the adapter upstream keeps only the message', async () => {
    const client = await nobodyHome()
    for (const hostError of [SeamError, undefined]) {
      const provider = createCompanionProvider(client, hostError ? { hostError } : {})
      cleanups.push(() => provider.close())
      const failure = await provider.ask({ questions: [{ id: 'a', question: 'q?' }] }).then(
        () => undefined,
        (error: unknown) => registryFailure(error),
      )
      expect(failure?.text).toMatch(/^Error: no Ask User Companion is running/)
      if (hostError) {
        expect(failure?.error.info).toEqual({ name, code: 'NO_PROVIDER' })
      } else expect(failure?.error.info).toBeUndefined()
    }
  })

  it('errors raised by the seam itself keep their name and code in our tool', async () => {
    const result = await executeAskUserQuestion(args, { interaction: new Service() })
    const noun = name === 'UserQuestionError' ? 'user-questions' : 'user-interaction'
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: `Error: no ${noun} provider is registered` }],
      error: { name, code: 'NO_PROVIDER' },
    })
    expect(new SeamError('x', 'CALLER_NOT_LIVE')).toBeInstanceOf(HarnessError)
  })
})

describe('our tool on the rc.8 seam', () => {
  it("registers once; a second registration raises the seam's DUPLICATE_PROVIDER", async () => {
    const { ui, client } = await companion()
    const service = new rc8.UserQuestionService()
    const registration = registerToolOnRc8({ userQuestions: service }, client)
    cleanups.push(() => registration.dispose())
    expect(() => registerToolOnRc8({ userQuestions: service }, client)).toThrow(
      expect.objectContaining({
        name: 'UserQuestionError',
        code: 'DUPLICATE_PROVIDER',
        message: 'a user-questions provider is already registered',
      }),
    )
    const result = registration.tool.execute(args)
    const ask = await ui.nextAsk()
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['npm'] }])
    expect(await result).toEqual({
      isError: false,
      content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["npm"]}]}' }],
    })
  })

  it.each([
    [
      { questions: [{ id: 5 }] },
      'invalid arguments: missing required property "questions[0].question"; "questions[0].id" must be a string',
    ],
    [null, 'invalid arguments: "arguments" must be an object'],
    [[], 'invalid arguments: "arguments" must be an object'],
    ['x', 'invalid arguments: "arguments" must be an object'],
  ])("argument errors read as upstream's: %j", async (bad, message) => {
    const result = await executeAskUserQuestion(bad, { interaction: new rc8.UserQuestionService() })
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: `Error: ${message}` }],
      error: { name: 'AskUserError', code: 'INVALID_ARGS' },
    })
  })
})
