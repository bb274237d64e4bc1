// The worker thread that opens question envelopes for question-opener-in-worker.ts: relay/crypto's `openQuestion`,
// unchanged, with the device's keys and the roster it was last sent. Built as its own entry
// (`relay-opener-worker.js` beside the main and CLI bundles, electron.vite.config.ts).
import { parentPort } from 'node:worker_threads'
import { isRelayCryptoError, openQuestion, type MemberKeys, type Roster } from '../crypto'
import type { OpenerReply, OpenerRequest } from './question-opener-messages'

const port = parentPort
if (!port) throw new Error('question-opener-worker runs only as a worker thread')

let device: MemberKeys | undefined
let roster: Roster | undefined

port.on('message', (request: OpenerRequest) => {
  if (request.type === 'device') device = request.device
  else if (request.type === 'roster') roster = request.roster
  else void open(request.id, request.storedBytes, request.kvKey)
})

async function open(id: number, storedBytes: Uint8Array, kvKey: string): Promise<void> {
  let reply: OpenerReply
  try {
    const opened = await openQuestion(storedBytes, { device: device!, roster: roster!, kvKey })
    // The body in a buffer of its own (it may be a view of a larger one), so the transfer moves only it.
    reply = { id, outcome: 'opened', opened: { ...opened, body: new Uint8Array(opened.body) } }
  } catch (error) {
    // The refusal's own message without the "CODE: " prefix RelayCryptoError adds back on the other side.
    reply = isRelayCryptoError(error)
      ? { id, outcome: 'refused', code: error.code, message: error.message.slice(error.code.length + 2) }
      : { id, outcome: 'failed' }
  }
  const transfer = reply.outcome === 'opened' ? [reply.opened.body.buffer as ArrayBuffer] : []
  port!.postMessage(reply, transfer)
}
