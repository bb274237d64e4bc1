// Secret questions end to end in the core: accepted from protocol clients only, sent only to windows
// that mask, never skippable, and never kept: not in history, not for a late answer.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../agent/client'
import { AGENT_GONE_REASON } from '../../../core/registry'
import { SECRETS_MASKED_QUERY } from '../../../shared/ui'
import { validateAskInput, validateToolInput, type ValidatedAsk } from '../../../shared/validate-input'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { asQuestion } from '../../helpers/ask-kinds'

const SECRET_ASK = { questions: [{ id: 'pw', question: '[sudo] password for u:', secret: true }] }
const SECRET = 'hunter2-secret-value'

describe('the secret flag at the two boundaries', () => {
  it('the tool boundary drops it, as every unknown question key', () => {
    const check = validateToolInput(SECRET_ASK)
    expect(check.ok && check.value.questions[0]).toEqual({ id: 'pw', question: '[sudo] password for u:' })
  })
  it('a protocol client keeps it; with options, or not a boolean, it is INVALID_ARGS', () => {
    const check = validateAskInput(SECRET_ASK)
    expect(check.ok && check.value.questions[0]).toEqual(SECRET_ASK.questions[0])
    expect(
      validateAskInput({ questions: [{ id: 'a', question: 'q', secret: true, options: [{ label: 'x' }] }] }),
    ).toEqual({
      ok: false,
      code: 'INVALID_ARGS',
      message: 'invalid arguments: "questions[0].secret" is only allowed on a question with no options',
    })
    expect(validateAskInput({ questions: [{ id: 'a', question: 'q', secret: 'yes' }] })).toMatchObject({
      ok: false,
      code: 'INVALID_ARGS',
    })
  })
})

describe('a secret ask in the companion', () => {
  let test: TestCompanion
  afterEach(async () => test?.cleanup())

  const secretAsk = (): ValidatedAsk => {
    const check = validateAskInput(SECRET_ASK)
    if (!check.ok) throw new Error(check.message)
    return check.value
  }

  it('goes only to windows that declare secrets=masked, cannot be skipped, and history keeps "answered" only', async () => {
    test = await startTestCompanion()
    const { companion } = test
    const masked = await connectUi({
      uiUrl: `${companion.uiUrl}?${SECRETS_MASKED_QUERY}`,
      token: companion.windowCredential(),
    })
    const plain = await connectUi(companion)
    const client = new AskUserClient({
      env: { ASK_USER_URL: companion.agentUrl, ASK_USER_TOKEN: companion.token },
      name: 'ask-user-askpass',
    })
    const answered = client.ask(secretAsk())
    const ask = await masked.nextAsk()
    expect(ask.questions[0]?.secret).toBe(true)
    // a window connecting later without the flag does not get it in its snapshot either
    const late = await connectUi(companion)
    expect(late.snapshot.pending).toEqual([])
    expect(await masked.answer(ask.askId, [{ id: 'pw', selected: [] }])).toMatchObject({
      type: 'rejected',
      code: 'INVALID_ANSWER',
    })
    expect(await masked.answer(ask.askId, [{ id: 'pw', selected: [], custom: SECRET }])).toMatchObject({
      type: 'accepted',
    })
    expect((await answered).answers).toEqual([{ id: 'pw', selected: [], custom: SECRET }])
    await masked.nextFrame((frame) => frame.type === 'question/resolved')
    expect(plain.frames.map((frame) => frame.type)).toEqual(['snapshot'])
    const [entry] = await companion.history()
    expect(entry).toMatchObject({ askId: ask.askId, outcome: 'answered', questions: SECRET_ASK.questions })
    expect(entry && asQuestion(entry).answers).toBeUndefined()
    expect(await readFile(join(test.home, 'history.jsonl'), 'utf8')).not.toContain(SECRET)
    await client.close()
    await Promise.all([masked.close(), plain.close(), late.close()])
  })

  it('an answer arriving after its agent left is dropped: not remembered, not in history', async () => {
    test = await startTestCompanion()
    const { companion } = test
    const masked = await connectUi({
      uiUrl: `${companion.uiUrl}?${SECRETS_MASKED_QUERY}`,
      token: companion.windowCredential(),
    })
    const client = new AskUserClient({ env: { ASK_USER_URL: companion.agentUrl, ASK_USER_TOKEN: companion.token } })
    const pending = client.ask(secretAsk()).catch((error: unknown) => error)
    const ask = await masked.nextAsk()
    await client.close()
    await pending
    await masked.nextFrame((frame) => frame.type === 'question/resolved' && frame.askId === ask.askId)
    const reply = await masked.answer(ask.askId, [{ id: 'pw', selected: [], custom: SECRET }])
    expect(reply).toMatchObject({ type: 'rejected', code: 'NOT_PENDING' })
    expect(reply.type === 'rejected' && reply.reason).not.toBe(AGENT_GONE_REASON)
    const entries = await companion.history()
    expect(entries.map((entry) => entry.outcome)).not.toContain('answered')
    expect(entries.every((entry) => asQuestion(entry).answers === undefined && entry.undelivered === undefined)).toBe(
      true,
    )
    expect(await readFile(join(test.home, 'history.jsonl'), 'utf8')).not.toContain(SECRET)
    expect(companion.pending()).toEqual([])
    await masked.close()
  })
})
