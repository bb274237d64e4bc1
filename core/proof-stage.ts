import { newNonce, PROOF_FAILED_CLOSE, proofMac, macsEqual, ProveFrameSchema, type ProofFrame } from '../shared/proof'
import type { Transport, TransportMessage } from '../shared/transport'

/** What the proof stage of one socket needs. */
export interface ProofStageOptions {
  channel: 'agent' | 'ui'
  /** The nonce the client offered as `nonce.<nonce>`. */
  clientNonce: string
  /** The secret both sides hold (the agent token, or the window credential at this moment). */
  secret: () => string
  /** The client must prove itself within this many milliseconds (the pre-authentication deadline). */
  timeoutMs: number
  /**
   * The client proved itself: the session takes over `transport` (its callbacks are cleared first).
   * Frames the client sent right behind its `prove` arrive at the new `onmessage`.
   */
  proven: (transport: Transport) => void
}

/**
 * The companion's side of the proof (shared/proof.ts): sends `proof {nonce, mac}` at once, then expects
 * `prove {mac}` as the client's first frame. Anything else, a wrong MAC or no `prove` in time closes the
 * socket with 4403 and nothing of the session is ever sent to it.
 */
export function runProofStage(transport: Transport, options: ProofStageOptions): void {
  const companionNonce = newNonce()
  let done = false
  const fail = (why: string): void => {
    if (done) return
    done = true
    clearTimeout(timer)
    transport.onmessage = undefined
    transport.close(PROOF_FAILED_CLOSE, why)
  }
  const timer = setTimeout(() => fail('no proof in time'), options.timeoutMs)
  transport.onclose = () => {
    done = true
    clearTimeout(timer)
  }
  const expected = proofMac(options.secret(), 'client', options.channel, options.clientNonce, companionNonce)
  // Frames queue behind the check, so that a `hello` sent with the `prove` keeps its place.
  let checked: Promise<boolean> | undefined
  const queued: TransportMessage[] = []
  transport.onmessage = (message) => {
    if (checked !== undefined) return void queued.push(message)
    checked = verify(message, expected)
    checked.then(
      (ok) => {
        if (done) return
        if (!ok) return fail('proof failed')
        done = true
        clearTimeout(timer)
        transport.onmessage = undefined
        transport.onclose = undefined
        options.proven(transport)
        for (const next of queued) receiverOf(transport)?.(next)
      },
      () => fail('proof failed'),
    )
  }
  void proofMac(options.secret(), 'companion', options.channel, options.clientNonce, companionNonce).then((mac) => {
    if (done) return
    const frame: ProofFrame = { type: 'proof', nonce: companionNonce, mac }
    transport.send(JSON.stringify(frame))
  })
}

async function verify(message: TransportMessage, expected: Promise<string>): Promise<boolean> {
  if (message.kind !== 'text') return false
  let json: unknown
  try {
    json = JSON.parse(message.text)
  } catch {
    return false
  }
  const prove = ProveFrameSchema.safeParse(json)
  return prove.success && macsEqual(await expected, prove.data.mac)
}

/** The transport's receiver now (a session may hand it on while queued frames are delivered). */
function receiverOf(transport: Transport): Transport['onmessage'] {
  return transport.onmessage
}
