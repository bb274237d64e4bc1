// Test helper: two transports linked in memory (as the MCP SDK's InMemoryTransport.createLinkedPair),
// so protocol tests run both ends of the agent socket without an HTTP server or a socket.
import type { Transport, TransportMessage } from '../../shared/transport'
import { CloseCode } from '../../shared/wire'

/** One end of a linked pair: a {@link Transport} plus what a test needs to play a misbehaving peer. */
export interface LinkedTransport extends Transport {
  /** Sends a binary frame (its bytes do not matter to any protocol here). False once closing. */
  sendBinary(): boolean
  /** Drops the link without a closing handshake: both ends get `onclose(1006, '')`. */
  drop(): void
  /** True once either end closed or dropped the link. */
  readonly closing: boolean
}

/**
 * Creates two linked transports: what one sends, the other receives. Delivery is asynchronous (one
 * microtask per frame) and in order, like a socket: a callback never runs inside the `send` that
 * caused it. `close(code, reason)` on either end closes both, each end's `onclose` getting that code
 * and reason after every frame sent before it; sends on either end return false from then on.
 */
export function createLinkedPair(): [LinkedTransport, LinkedTransport] {
  let closing = false
  const finish = (code: number, reason: string): void => {
    if (closing) return
    closing = true
    queueMicrotask(() => {
      for (const end of [a, b]) end.onclose?.(code, reason)
    })
  }
  const makeEnd = (peer: () => LinkedTransport): LinkedTransport => {
    const deliver = (message: TransportMessage): boolean => {
      if (closing) return false
      queueMicrotask(() => peer().onmessage?.(message))
      return true
    }
    return {
      onmessage: undefined,
      onclose: undefined,
      get closing() {
        return closing
      },
      send: (text) => deliver({ kind: 'text', text }),
      sendBinary: () => deliver({ kind: 'binary' }),
      close: (code, reason) => finish(code, reason),
      drop: () => finish(CloseCode.ABNORMAL_CLOSURE, ''),
    }
  }
  const a: LinkedTransport = makeEnd(() => b)
  const b: LinkedTransport = makeEnd(() => a)
  return [a, b]
}
