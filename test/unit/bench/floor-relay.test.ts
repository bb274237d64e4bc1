// The bench's floor relays are the yardsticks of docs/performance.md: their window replies must be what
// the figures say they are (the two a companion sends, ask/settled and ask/accepted, or none).
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startFloorRelay, type FloorRelay } from '../../../bench/floor-relay'
import { createFrameQueue, type FrameQueue } from '../../helpers/frame-queue'

type Frame = Record<string, any>
let relay: FloorRelay | undefined
afterEach(async () => {
  await relay?.close()
  relay = undefined
})

async function open(url: string): Promise<{ ws: WebSocket; frames: FrameQueue<Frame> }> {
  const ws = new WebSocket(url)
  const frames = createFrameQueue<Frame>(url)
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame))
  ws.on('close', () => frames.end())
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  return { ws, frames }
}

const ask = (id: string): string =>
  JSON.stringify({ type: 'ask', id, questions: [{ id: 'q1', question: 'Go?', options: [{ label: 'A' }] }] })
const answer = (askId: string): string =>
  JSON.stringify({ type: 'ask/answer', askId, answers: [{ id: 'q1', selected: ['A'] }] })

async function connect(
  windowReplies?: 'v1',
): Promise<{ agent: Awaited<ReturnType<typeof open>>; window: Awaited<ReturnType<typeof open>> }> {
  relay = await startFloorRelay(windowReplies ? { windowReplies } : {})
  const window = await open(relay.uiUrl)
  await window.frames.next((f) => f.type === 'snapshot')
  const agent = await open(relay.agentUrl)
  agent.ws.send(JSON.stringify({ type: 'hello', protocol: 1, client: { name: 'test' } }))
  await agent.frames.next((f) => f.type === 'welcome')
  return { agent, window }
}

describe('the floor relay', () => {
  it('with v1 replies sends the answering window ask/settled then ask/accepted', async () => {
    const { agent, window } = await connect('v1')
    agent.ws.send(ask('k1'))
    const added = await window.frames.next((f) => f.type === 'ask/added')
    window.ws.send(answer(added.ask.askId))
    expect(await agent.frames.next()).toEqual({ type: 'answer', id: 'k1', answers: [{ id: 'q1', selected: ['A'] }] })
    expect(await window.frames.next()).toEqual({ type: 'ask/settled', askId: added.ask.askId, outcome: 'answered' })
    expect(await window.frames.next()).toEqual({ type: 'ask/accepted', askId: added.ask.askId, outcome: 'answered' })
  })

  it('with no replies sends the window nothing after an answer', async () => {
    const { agent, window } = await connect()
    agent.ws.send(ask('k1'))
    const added = await window.frames.next((f) => f.type === 'ask/added')
    window.ws.send(answer(added.ask.askId))
    await agent.frames.next((f) => f.type === 'answer')
    agent.ws.send(ask('k2'))
    await window.frames.next((f) => f.type === 'ask/added')
    expect(window.frames.frames.map((f) => f.type)).toEqual(['snapshot', 'ask/added', 'ask/added'])
  })
})
