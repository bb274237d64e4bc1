// The worker-thread question opener against real envelopes sealed with relay/crypto: it opens what
// openQuestion opens, refuses with the same codes and messages, survives its worker dying mid-way
// (the held questions open on this thread, one warning, a new worker next time), and leaves no thread
// running after close.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Worker } from 'node:worker_threads'
import { randomToken, utf8 } from '../../../../relay/crypto/encoding'
import { openQuestion, sealQuestion } from '../../../../relay/crypto/question-envelope'
import { newReplyKey } from '../../../../relay/crypto/reply-key'
import { signRoster, verifyRoster } from '../../../../relay/crypto/roster'
import { openerWorkerScript, WorkerQuestionOpener } from '../../../../relay/exchange/question-opener-in-worker'
import { NOW, expectRefusal, flipBit, makeInbox } from '../crypto-fixtures'

const body = utf8(JSON.stringify({ questions: [{ question: 'Deploy to production?', options: ['yes', 'no'] }] }))

async function inboxWithQuestions(count: number) {
  const inbox = await makeInbox(2)
  const questions = []
  for (let index = 0; index < count; index += 1) {
    const kvKey = `q.${inbox.agent.member.id}.${randomToken()}`
    const sealed = await sealQuestion({
      agent: inbox.agent,
      roster: inbox.roster,
      askId: kvKey.split('.')[2]!,
      kvKey,
      replyKey: (await newReplyKey()).publicKey,
      body,
    })
    questions.push({ kvKey, sealed })
  }
  return { ...inbox, questions }
}

it('a worker that cannot be created (a broken build) leaves questions opening here, told once', async () => {
  const { devices, roster, questions } = await inboxWithQuestions(2)
  const warnings: string[] = []
  const workerOpener = new WorkerQuestionOpener({
    warn: (text) => warnings.push(text),
    script: () => openerWorkerScript(tmpdir()),
  })
  for (const { kvKey, sealed } of questions) {
    expect((await workerOpener.open(sealed.bytes, { device: devices[0]!, roster, kvKey })).qHash).toBe(sealed.qHash)
  }
  expect(warnings).toEqual([
    expect.stringMatching(
      /^the relay's question-opening worker could not start \(the relay's question-opening worker is missing \(.*relay-opener-worker\.js\); rebuild with npm run build\); opening questions on the main thread$/,
    ),
  ])
  expect(workerOpener.running).toBe(false)
  await workerOpener.close()
})

it("an opener never closed does not keep its process alive (the worker is unref'd)", async () => {
  const child = join(import.meta.dirname, 'opener-exit-child.ts')
  // No disk cache: jiti would leave its compiled files in the test run's temp folder.
  const load = `require('jiti').createJiti(${JSON.stringify(child)}, { fsCache: false })`
  const script = `${load}(${JSON.stringify(child)}).openOnceAndLeaveOpen()`
  const run = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  run.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  const deadline = setTimeout(() => run.kill(), 30_000)
  const [code] = (await once(run, 'exit')) as [number | null]
  clearTimeout(deadline)
  expect({ code, out }).toEqual({ code: 0, out: 'opened true\n' })
}, 40_000)

function opener(warnings: string[] = [], started: Worker[] = []): WorkerQuestionOpener {
  return new WorkerQuestionOpener({ warn: (text) => warnings.push(text), onStarted: (worker) => started.push(worker) })
}

describe('WorkerQuestionOpener', () => {
  it('opens what openQuestion opens, on one lazily started worker, and ends it on close', async () => {
    const { devices, roster, questions } = await inboxWithQuestions(3)
    const started: Worker[] = []
    const workerOpener = opener([], started)
    expect(workerOpener.running).toBe(false)
    for (const { kvKey, sealed } of questions) {
      const options = { device: devices[1]!, roster, kvKey }
      const opened = await workerOpener.open(sealed.bytes, options)
      expect(opened).toEqual(await openQuestion(sealed.bytes, options))
      expect(opened.qHash).toBe(sealed.qHash)
      // The caller's bytes are not detached by the transfer.
      expect(sealed.bytes.byteLength).toBeGreaterThan(0)
    }
    expect(started).toHaveLength(1)
    const exited = once(started[0]!, 'exit')
    await workerOpener.close()
    await exited
    expect(workerOpener.running).toBe(false)
  })

  it("opens views of one shared buffer (NATS hands those out) without detaching the caller's bytes", async () => {
    const { devices, roster, questions } = await inboxWithQuestions(4)
    const sizes = questions.map(({ sealed }) => sealed.bytes.byteLength)
    const shared = new Uint8Array(sizes.reduce((sum, size) => sum + size, 0))
    const views: Buffer[] = []
    for (const [index, { sealed }] of questions.entries()) {
      const offset = sizes.slice(0, index).reduce((sum, size) => sum + size, 0)
      shared.set(sealed.bytes, offset)
      views.push(Buffer.from(shared.buffer, offset, sealed.bytes.byteLength))
    }
    const workerOpener = opener()
    try {
      for (const [index, view] of views.entries()) {
        const opened = await workerOpener.open(view, { device: devices[0]!, roster, kvKey: questions[index]!.kvKey })
        expect(opened.qHash).toBe(questions[index]!.sealed.qHash)
      }
      expect(shared.byteLength).toBe(sizes.reduce((sum, size) => sum + size, 0))
      expect(views.map((view) => view.byteLength)).toEqual(sizes)
    } finally {
      await workerOpener.close()
    }
  })

  it('refuses with the codes and messages of openQuestion: moved key, flipped bit, removed device', async () => {
    const inbox = await inboxWithQuestions(1)
    const { devices, roster, root } = inbox
    const { kvKey, sealed } = inbox.questions[0]!
    const workerOpener = opener()
    try {
      const cases = [
        { bytes: sealed.bytes, options: { device: devices[0]!, roster, kvKey: `${kvKey}x` }, code: 'QUESTION_BINDING' },
        {
          bytes: flipBit(sealed.bytes, sealed.bytes.length - 1, 0),
          options: { device: devices[0]!, roster, kvKey },
          code: 'QUESTION_SIGNATURE',
        },
      ] as const
      for (const { bytes, options, code } of cases) {
        const expected = await expectRefusal(openQuestion(bytes, options), code)
        expect(await expectRefusal(workerOpener.open(bytes, options), code)).toBe(expected)
      }
      // A device joined after the question was sealed: a new roster (re-sent to the worker) lists it.
      const newcomer = (await makeInbox(1)).devices[0]!
      const signed = await signRoster(root, { version: 2, members: [...roster.members, newcomer.member], now: NOW })
      const roster2 = await verifyRoster(signed.bytes, signed.signature, root.publicKey, {
        highestSeenVersion: 1,
        now: NOW,
      })
      const options = { device: newcomer, roster: roster2, kvKey }
      const expected = await expectRefusal(openQuestion(sealed.bytes, options), 'QUESTION_NOT_RECIPIENT')
      expect(await expectRefusal(workerOpener.open(sealed.bytes, options), 'QUESTION_NOT_RECIPIENT')).toBe(expected)
      // A device the roster no longer lists still holds a key the question was sealed to; the agent is
      // what the roster must list: removed from it, its questions are refused.
      const withoutAgent = await signRoster(root, {
        version: 3,
        members: roster.members.filter((member) => member.role !== 'agent'),
        now: NOW,
      })
      const roster3 = await verifyRoster(withoutAgent.bytes, withoutAgent.signature, root.publicKey, {
        highestSeenVersion: 2,
        now: NOW,
      })
      await expectRefusal(
        workerOpener.open(sealed.bytes, { device: devices[0]!, roster: roster3, kvKey }),
        'QUESTION_UNKNOWN_AGENT',
      )
    } finally {
      await workerOpener.close()
    }
  })

  it('a worker killed mid-way loses nothing: held questions open here, one warning, a new worker next time', async () => {
    const { devices, roster, questions } = await inboxWithQuestions(20)
    const warnings: string[] = []
    const started: Worker[] = []
    const workerOpener = opener(warnings, started)
    try {
      const open = (index: number) =>
        workerOpener.open(questions[index]!.sealed.bytes, {
          device: devices[0]!,
          roster,
          kvKey: questions[index]!.kvKey,
        })
      const first = questions.slice(0, 10).map((_, index) => open(index))
      await started[0]!.terminate()
      const opened = await Promise.all(first)
      expect(opened.map((question) => question.qHash)).toEqual(questions.slice(0, 10).map((q) => q.sealed.qHash))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(
        /^the relay's question-opening worker stopped \(it exited with code \d+\); opening questions on the main thread/,
      )
      const rest = await Promise.all(questions.slice(10).map((_, index) => open(index + 10)))
      expect(rest.map((question) => question.qHash)).toEqual(questions.slice(10).map((q) => q.sealed.qHash))
      expect(started).toHaveLength(2)
      expect(warnings).toHaveLength(1)
    } finally {
      await workerOpener.close()
    }
  })
})
