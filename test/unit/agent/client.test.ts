import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../agent/client'
import { AskAbortedError, START_HINT } from '../../../agent/errors'
import { validateAsk } from '../../../agent/validated-ask'
import { AskUserError } from '../../../shared/error-codes'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { Question } from '../../../shared/tool-input'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi, type UiClient } from '../../helpers/ui-client'
import { WAIT_MS } from '../../helpers/waits'

const pkgQuestions: Question[] = [
  { id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] },
]
const pkg = validateAsk({ questions: pkgQuestions })
/** Tool arguments for `questions`, validated as an entry point would. */
const asking = (questions: Question[]) => validateAsk({ questions })

const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(): Promise<{ tc: TestCompanion; ui: UiClient; client: AskUserClient }> {
  const tc = await startTestCompanion()
  cleanups.push(tc.cleanup)
  const ui = await connectUi(tc.companion)
  cleanups.push(() => ui.close())
  const client = new AskUserClient({ env: { ASK_USER_HOME: tc.home }, name: 'test-agent', title: 'client tests' })
  cleanups.push(() => client.close())
  return { tc, ui, client }
}

async function rejection(promise: Promise<unknown>): Promise<AskUserError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AskUserError)
  return error as AskUserError
}

async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('AskUserClient against a real companion', () => {
  it('delivers the ask with who is asking and resolves with the canonical answer', async () => {
    const { ui, client } = await setup()
    const answer = client.ask(pkg, { title: 'Set-up' })
    const ask = await ui.nextAsk()
    expect(ask.agent).toMatchObject({ name: 'test-agent', pid: process.pid, cwd: process.cwd(), title: 'client tests' })
    expect(ask.title).toBe('Set-up')
    expect(ask.questions).toEqual(pkgQuestions)
    expect(await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])).toMatchObject({ type: 'accepted' })
    expect(await answer).toEqual({ answers: [{ id: 'pkg', selected: ['pnpm'] }] })
  })

  it('carries several asks on one connection, each settled on its own', async () => {
    const { tc, ui, client } = await setup()
    const first = client.ask(asking([{ id: 'a', question: 'A?' }]))
    const second = client.ask(asking([{ id: 'b', question: 'B?' }]))
    const askA = await ui.nextAsk((ask) => ask.questions[0]?.id === 'a')
    const askB = await ui.nextAsk((ask) => ask.questions[0]?.id === 'b')
    await ui.answer(askB.askId, [{ id: 'b', selected: [], custom: 'bee' }])
    expect(await second).toEqual({ answers: [{ id: 'b', selected: [], custom: 'bee' }] })
    expect(tc.companion.pending().map((ask) => ask.askId)).toEqual([askA.askId])
    await ui.answer(askA.askId, [{ id: 'a', selected: [] }])
    expect(await first).toEqual({ answers: [{ id: 'a', selected: [] }] })
    expect(askA.agent.pid).toBe(askB.agent.pid)
  })

  it('fails with ASK_CANCELLED when the person dismisses', async () => {
    const { ui, client } = await setup()
    const answer = rejection(client.ask(pkg))
    await ui.dismiss((await ui.nextAsk()).askId)
    const error = await answer
    expect(error.code).toBe('ASK_CANCELLED')
    expect(error.message).toBe('the user cancelled ask_user_question')
  })

  it('fails with ASK_ABORTED at once for a signal aborted before the ask, sending nothing', async () => {
    const { tc, ui, client } = await setup()
    const error = await rejection(client.ask(pkg, { signal: AbortSignal.abort() }))
    expect(error.code).toBe('ASK_ABORTED')
    expect(error).toBeInstanceOf(AskAbortedError)
    expect((error as AskAbortedError).reason).toBe('signal')
    // A later ask is the first and only one the companion sees.
    const later = client.ask(asking([{ id: 'later', question: 'Later?' }]))
    const ask = await ui.nextAsk()
    expect(ask.questions[0]!.id).toBe('later')
    expect(tc.companion.pending()).toHaveLength(1)
    await ui.answer(ask.askId, [{ id: 'later', selected: [] }])
    await later
  })

  it('withdraws the ask when the signal aborts during the wait', async () => {
    const { tc, ui, client } = await setup()
    const controller = new AbortController()
    const answer = rejection(client.ask(pkg, { signal: controller.signal }))
    const ask = await ui.nextAsk()
    controller.abort()
    const error = await answer
    expect([error.code, (error as AskAbortedError).reason]).toEqual(['ASK_ABORTED', 'signal'])
    const resolved = await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === ask.askId)
    expect(resolved).toMatchObject({ outcome: 'aborted' })
    expect(tc.companion.pending()).toEqual([])
    expect(await ui.answer(ask.askId, [{ id: 'pkg', selected: [] }])).toMatchObject({
      type: 'rejected',
      code: 'NOT_PENDING',
    })
  })

  it('times out with ASK_ABORTED saying so, and withdraws the ask', async () => {
    const { tc, ui, client } = await setup()
    const answer = rejection(client.ask(pkg, { timeoutMs: 300 }))
    const error = await answer
    expect(error.code).toBe('ASK_ABORTED')
    expect((error as AskAbortedError).reason).toBe('timeout')
    expect(error.message).toBe('no answer within 0.3 s: the ask timed out and was withdrawn')
    // On a busy machine the 300 ms may run out before the ask reaches the companion; either way nothing
    // stays pending, and a window that was shown the ask sees it resolved.
    await expect.poll(() => tc.companion.pending(), { timeout: WAIT_MS }).toEqual([])
    const shown = ui.frames.find((f) => f.type === 'question/added')
    if (shown?.type === 'question/added')
      await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === shown.ask.askId)
  })

  it('refuses a timeout no timer can wait for, instead of timing out at once', async () => {
    const { tc, client } = await setup()
    const error = await rejection(client.ask(pkg, { timeoutMs: 3_000_000_000 }))
    expect(error.code).toBe('INVALID_ARGS')
    expect(error.message).toMatch(/timeoutMs must be a number of milliseconds from 1 to 2147483647/)
    expect(tc.companion.pending()).toEqual([])
  })

  it('leaves the caps to the companion: raised limits in its settings are usable', async () => {
    const tc = await startTestCompanion({ settings: { limits: { ...DEFAULT_LIMITS, questionsPerAsk: 100 } } })
    cleanups.push(tc.cleanup)
    const ui = await connectUi(tc.companion)
    cleanups.push(() => ui.close())
    const client = new AskUserClient({ env: { ASK_USER_HOME: tc.home }, name: 'test-agent' })
    cleanups.push(() => client.close())
    const sixty = Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?` }))
    const answer = client.ask(asking(sixty))
    const ask = await ui.nextAsk()
    const answers = sixty.map((q) => ({ id: q.id, selected: [] }))
    await ui.answer(ask.askId, answers)
    expect(await answer).toEqual({ answers })
  })

  it('close() aborts every pending ask and a closed client refuses new ones', async () => {
    const { tc, ui, client } = await setup()
    const one = rejection(client.ask(asking([{ id: 'a', question: 'A?' }])))
    const two = rejection(client.ask(asking([{ id: 'b', question: 'B?' }])))
    await ui.nextAsk()
    await ui.nextAsk()
    expect(client.pendingCount).toBe(2)
    await client.close()
    for (const error of [await one, await two]) {
      expect([error.code, (error as AskAbortedError).reason]).toEqual(['ASK_ABORTED', 'closed'])
    }
    await until(() => tc.companion.pending().length === 0)
    expect((await rejection(client.ask(pkg))).code).toBe('ASK_ABORTED')
  })
})

describe('no companion', () => {
  it('fails with NO_PROVIDER saying how to start it when there is no discovery file', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ask-user-absent-'))
    cleanups.push(() => rm(home, { recursive: true, force: true }))
    const error = await rejection(new AskUserClient({ env: { ASK_USER_HOME: home } }).ask(pkg))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toBe(`no Ask User Companion is running (no endpoint.json in ${home}); ${START_HINT}`)
    expect(START_HINT).toBe('start the Ask User Companion app, or run `ask-user serve`')
  })

  it('fails with NO_PROVIDER when the discovery file points at a companion that is gone', async () => {
    const tc = await startTestCompanion()
    cleanups.push(tc.cleanup)
    const home = await mkdtemp(join(tmpdir(), 'ask-user-stale-'))
    cleanups.push(() => rm(home, { recursive: true, force: true }))
    const url = tc.companion.agentUrl
    await tc.cleanup()
    await writeFile(join(home, 'endpoint.json'), JSON.stringify({ protocol: 1, url, token: 'x', pid: 1 }), {
      mode: 0o600,
    })
    const error = await rejection(new AskUserClient({ env: { ASK_USER_HOME: home } }).ask(pkg))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toMatch(new RegExp(`^cannot reach the Ask User Companion at ${url} \\(ECONNREFUSED\\); `))
  })

  it('fails with NO_PROVIDER when the token is wrong (the companion cannot prove it holds it)', async () => {
    const tc = await startTestCompanion({ writeDiscovery: false })
    cleanups.push(tc.cleanup)
    const env = { ASK_USER_URL: tc.companion.agentUrl, ASK_USER_TOKEN: 'wrong' }
    const error = await rejection(new AskUserClient({ env }).ask(pkg))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toBe(
      `cannot reach the Ask User Companion at ${tc.companion.agentUrl} (cannot verify the companion on this port: ` +
        'it did not prove that it holds the token; the token is stale, or another program has the port); ' +
        "set ASK_USER_TOKEN_FILE (or ASK_USER_TOKEN) to the running companion's current token, or unset ASK_USER_URL",
    )
    expect(error.message).not.toContain(START_HINT)
  })

  it.skipIf(process.platform === 'win32')('refuses a discovery file that others may read', async () => {
    const { tc } = await setup()
    const file = join(tc.home, 'endpoint.json')
    await chmod(file, 0o644)
    const error = await rejection(new AskUserClient({ env: { ASK_USER_HOME: tc.home } }).ask(pkg))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toBe(
      `refusing to use ${file}: other users may read or write it (mode 644); it holds the companion's token. ` +
        `Run \`chmod 600 ${file}\` and restart the companion`,
    )
  })
})

describe('companion restarting', () => {
  it('fails the pending ask with ASK_ABORTED and reconnects to the new endpoint on the next ask', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ask-user-restart-'))
    cleanups.push(() => rm(home, { recursive: true, force: true }))
    const first = await startTestCompanion({ home })
    cleanups.push(first.cleanup)
    const ui1 = await connectUi(first.companion)
    cleanups.push(() => ui1.close())
    const client = new AskUserClient({ env: { ASK_USER_HOME: home } })
    cleanups.push(() => client.close())
    const pending = rejection(client.ask(pkg))
    await ui1.nextAsk()
    await first.cleanup()
    const error = await pending
    expect(error.code).toBe('ASK_ABORTED')
    expect((error as AskAbortedError).reason).toBe('connection-lost')
    expect(error.message).toBe('the Ask User Companion went away: the companion is shutting down')

    const second = await startTestCompanion({ home })
    cleanups.push(second.cleanup)
    expect(second.companion.port).not.toBe(first.companion.port)
    const ui2 = await connectUi(second.companion)
    cleanups.push(() => ui2.close())
    const next = client.ask(pkg)
    const ask = await ui2.nextAsk()
    await ui2.answer(ask.askId, [{ id: 'pkg', selected: ['npm'] }])
    expect(await next).toEqual({ answers: [{ id: 'pkg', selected: ['npm'] }] })
  })
})

describe('remote agents through a forwarded port (ssh -R style)', () => {
  it('reaches the companion with ASK_USER_URL + ASK_USER_TOKEN through a plain TCP forwarder', async () => {
    const tc = await startTestCompanion({ writeDiscovery: false })
    cleanups.push(tc.cleanup)
    const ui = await connectUi(tc.companion)
    cleanups.push(() => ui.close())
    const sockets = new Set<Socket>()
    const forwarder: Server = createServer((inbound) => {
      const outbound = connect(tc.companion.port, '127.0.0.1')
      sockets.add(inbound).add(outbound)
      inbound.pipe(outbound).pipe(inbound)
      const end = (): void => {
        inbound.destroy()
        outbound.destroy()
      }
      inbound.on('error', end).on('close', end)
      outbound.on('error', end).on('close', end)
    })
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve))
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy()
          forwarder.close(() => resolve())
        }),
    )
    const address = forwarder.address()
    if (address === null || typeof address === 'string') throw new Error('no forwarder port')
    const env = {
      ASK_USER_URL: `ws://localhost:${address.port}/v1/agent`,
      ASK_USER_TOKEN: tc.companion.token,
      ASK_USER_HOME: '/nonexistent',
    }
    const remote = new AskUserClient({ env, name: 'remote-agent' })
    cleanups.push(() => remote.close())
    const answer = remote.ask(pkg)
    const ask = await ui.nextAsk()
    expect(ask.agent.name).toBe('remote-agent')
    await ui.answer(ask.askId, [{ id: 'pkg', selected: ['pnpm'] }])
    expect(await answer).toEqual({ answers: [{ id: 'pkg', selected: ['pnpm'] }] })
  })
})
