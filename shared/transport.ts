/**
 * What a protocol end needs from whatever carries its frames: the agent connection of the core and
 * the agent library's connection both speak wire protocol v1 over this, and know nothing of sockets.
 * Adapters wrap a real `ws` WebSocket (core/ws-transport.ts, agent/ws-transport.ts); tests link two
 * ends in memory (test/helpers/linked-pair.ts). As in the MCP SDK, the protocol end installs the
 * callbacks synchronously when it takes the transport; a message that arrives while no callback is
 * installed is dropped, as `ws` drops a message with no listener.
 */
export interface Transport {
  /**
   * Sends one text frame. Returns false, and sends nothing, once the transport is closing or closed;
   * true means the frame was handed over (delivery is not confirmed).
   */
  send(text: string): boolean
  /**
   * Starts the closing handshake with a close `code` (1000–4999) and a short `reason`. `onclose`
   * follows once closed. Does nothing when the transport is already closing or closed.
   */
  close(code: number, reason: string): void
  /** A frame arrived: a text frame, or a binary frame (which no protocol here accepts). */
  onmessage: ((message: TransportMessage) => void) | undefined
  /**
   * The transport closed, cleanly or not (an abrupt drop reports `CloseCode.ABNORMAL_CLOSURE`, 1006, shared/wire.ts); called exactly once, after
   * the last `onmessage`.
   */
  onclose: ((code: number, reason: string) => void) | undefined
}

/** One received frame: its text, or only the fact that it was binary. */
export type TransportMessage = { kind: 'text'; text: string } | { kind: 'binary' }
