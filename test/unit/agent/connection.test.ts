// The client library's side of wire protocol v1 against a scripted fake companion on the far end of
// a linked in-memory pair: protocol edge cases the real core never produces, no socket involved.
// The WebSocket dialing (upgrade checks, subprotocol, timeouts) is in ws-transport.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../agent/client'
import { Connection } from '../../../agent/connection'
import type { AskAbortedError } from '../../../agent/errors'
import { validateAsk } from '../../../agent/validated-ask'
import { HandshakeError } from '../../../agent/ws-transport'
import { failure } from '../../helpers/errors'
import { createFrameQueue } from '../../helpers/frame-queue'
import { createLinkedPair, type LinkedTransport } from '../../helpers/linked-pair'

type Frame = { type: string; id?: string; client?: { name: string } }
type Script = (companion: LinkedTransport, frame: Frame) => void

const clients: AskUserClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
})

/** The companion's end of a new pair: welcomes each hello and hands every later frame to `script`. */
function fakeCompanion(script: Script): { agentEnd: LinkedTransport; companionEnd: LinkedTransport } {
  const [agentEnd, companionEnd] = createLinkedPair()
  companionEnd.onmessage = (message) => {
    if (message.kind !== 'text') return
    const frame = JSON.parse(message.text) as Frame
    if (frame.type === 'hello')
      companionEnd.send(JSON.stringify({ type: 'welcome', protocol: 1, server: { name: 'fake', version: '0' } }))
    else script(companionEnd, frame)
  }
  return { agentEnd, companionEnd }
}

/** A client whose every connection is a new pair to a fake companion running `script`. */
function clientOf(script: Script): AskUserClient {
  const client = new AskUserClient({ connect: (info) => Connection.greet(fakeCompanion(script).agentEnd, info) })
  clients.push(client)
  return client
}

const question = validateAsk({ questions: [{ id: 'q', question: 'Q?', options: [{ label: 'a' }] }] })

describe('the client never passes on a bad reply', () => {
  it('an unreadable frame closes the connection and fails pending asks with ASK_ABORTED', async () => {
    const client = clientOf((companion) => companion.send('{"type":"answer","id":"ask-1"}'))
    const error = await failure(client.ask(question))
    expect(error.code).toBe('ASK_ABORTED')
    expect((error as AskAbortedError).reason).toBe('connection-lost')
    expect(error.message).toMatch(
      /^the Ask User Companion went away before the person answered \(connection closed: code 1002/,
    )
  })

  it('a binary frame is unreadable too', async () => {
    const client = clientOf((companion) => companion.sendBinary())
    const error = await failure(client.ask(question))
    expect(error.message).toBe(
      'the Ask User Companion went away before the person answered (connection closed: code 1002, invalid frame); no answer was given',
    )
  })

  it('an answer that breaks the answer rules is INVALID_ANSWER', async () => {
    const client = clientOf((companion, frame) =>
      companion.send(
        JSON.stringify({ type: 'answer', id: frame.id, answers: [{ id: 'q', selected: ['not offered'] }] }),
      ),
    )
    const error = await failure(client.ask(question))
    expect(error.code).toBe('INVALID_ANSWER')
    expect(error.message).toBe(
      'the companion sent an answer that breaks the answer rules: answer 1 ("q"): "not offered" is not one of the options',
    )
  })

  it('an error frame for the ask keeps its code and message', async () => {
    const client = clientOf((companion, frame) =>
      companion.send(
        JSON.stringify({ type: 'error', id: frame.id, code: 'LIMIT_EXCEEDED', message: 'too many pending asks' }),
      ),
    )
    const error = await failure(client.ask(question))
    expect([error.code, error.message]).toEqual(['LIMIT_EXCEEDED', 'too many pending asks'])
  })

  it('an abrupt drop (no close frame) fails the ask with ASK_ABORTED, and the next ask reconnects', async () => {
    let asks = 0
    const client = clientOf((companion, frame) => {
      asks++
      if (asks === 1) companion.drop()
      else companion.send(JSON.stringify({ type: 'answer', id: frame.id, answers: [{ id: 'q', selected: ['a'] }] }))
    })
    const error = await failure(client.ask(question))
    expect((error as AskAbortedError).reason).toBe('connection-lost')
    expect(error.message).toContain('connection closed: code 1006')
    expect(await client.ask(question)).toEqual({ answers: [{ id: 'q', selected: ['a'] }] })
  })

  it('mints distinct ids for concurrent asks on one connection and sends cancel on abort', async () => {
    const seen = createFrameQueue<Frame>('fake companion')
    const client = clientOf((_companion, frame) => seen.push(frame))
    const controller = new AbortController()
    const first = failure(client.ask(question, { signal: controller.signal }))
    void client.ask(question).catch(() => undefined)
    const asked = [await seen.next((f) => f.type === 'ask'), await seen.next((f) => f.type === 'ask')]
    expect(new Set(asked.map((f) => f.id)).size).toBe(2)
    controller.abort()
    expect((await first).code).toBe('ASK_ABORTED')
    expect((await seen.next((f) => f.type === 'cancel')).id).toBe(asked[0]!.id)
  })

  it('the companion going away fails every pending ask once, with the close code and reason', async () => {
    const { agentEnd, companionEnd } = fakeCompanion(() => undefined)
    const connection = await Connection.greet(agentEnd, { name: 'x' })
    const errors: string[] = []
    const pending = { resolve: () => errors.push('resolved'), reject: (e: Error) => errors.push(e.message) }
    connection.ask('a', question, undefined, pending)
    connection.ask('b', question, undefined, pending)
    const closed = new Promise<void>((resolve) => connection.onClose(resolve))
    companionEnd.close(1001, 'companion shutting down')
    await closed
    const lost =
      'the Ask User Companion went away before the person answered (connection closed: code 1001, companion shutting down); no answer was given'
    expect(errors).toEqual([lost, lost])
    connection.ask('c', question, undefined, pending)
    expect(errors.at(-1)).toBe('the Ask User Companion went away before the ask was sent')
  })
})

describe('Connection.greet', () => {
  it('sends hello with the client info and resolves on welcome', async () => {
    const hellos: unknown[] = []
    const [agentEnd, companionEnd] = createLinkedPair()
    companionEnd.onmessage = (message) => {
      if (message.kind === 'text') hellos.push(JSON.parse(message.text))
      companionEnd.send(JSON.stringify({ type: 'welcome', protocol: 1, server: { name: 'fake', version: '0' } }))
    }
    expect(await Connection.greet(agentEnd, { name: 'me', pid: 7 })).toBeInstanceOf(Connection)
    expect(hellos).toEqual([{ type: 'hello', protocol: 1, client: { name: 'me', pid: 7 } }])
  })

  it.each([
    ['an error frame', '{"type":"error","code":"UNSUPPORTED_PROTOCOL","message":"no"}', 'UNSUPPORTED_PROTOCOL: no'],
    ['another frame', '{"type":"answer","id":"x","answers":[]}', 'the first frame was not a welcome'],
    ['a non-frame', 'hello?', 'the first frame was not a welcome'],
  ])('refuses %s first with a HandshakeError', async (_what, reply, message) => {
    const [agentEnd, companionEnd] = createLinkedPair()
    companionEnd.onmessage = () => void companionEnd.send(reply)
    const error: unknown = await Connection.greet(agentEnd, { name: 'me' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HandshakeError)
    expect((error as HandshakeError).message).toBe(message)
  })

  it('refuses a close before the welcome with a HandshakeError', async () => {
    const [agentEnd, companionEnd] = createLinkedPair()
    companionEnd.onmessage = () => companionEnd.close(1008, 'no')
    await expect(Connection.greet(agentEnd, { name: 'me' })).rejects.toThrow(
      'connection closed with code 1008 before the welcome',
    )
  })
})
