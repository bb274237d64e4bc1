import WebSocket from 'ws'
import type { Transport } from '../shared/transport'
import { AGENT_PROOF_SUBPROTOCOL, NONCE_SUBPROTOCOL_PREFIX, answerProof, newNonce } from '../shared/proof'
import type { Endpoint } from './discovery'
import { noCompanion } from './errors'
import { errorMessage } from '../shared/describe-error'
import { AskUserError } from '../shared/error-codes'

/**
 * Why a protocol handshake over a transport failed (no `welcome`, an `error` frame first, a close):
 * a local error, never sent. {@link dialCompanion} turns it into `NO_PROVIDER`, naming the endpoint.
 */
export class HandshakeError extends Error {
  override readonly name = 'HandshakeError'
}

/**
 * `NO_PROVIDER` for a token the endpoint does not take. With `ASK_USER_URL` something runs there, so the
 * fix is the token, never "start a companion"; a discovery file's token is the one its companion wrote,
 * so a mismatch there means the file outlived its companion, and starting one is the fix.
 */
function staleTokenError(message: string, endpoint: Endpoint): AskUserError {
  if (endpoint.source !== 'env') return noCompanion(message)
  return new AskUserError(
    'NO_PROVIDER',
    `${message}; set ASK_USER_TOKEN_FILE (or ASK_USER_TOKEN) to the running companion's current token, or unset ASK_USER_URL`,
  )
}

/**
 * Opens the companion's agent WebSocket under the proof subprotocol `ask-user.v1.proof` (no token on
 * the wire, no compression, no redirects), checks that the companion proves it holds the token
 * (shared/proof.ts) before sending anything, proves itself, then runs `greet` (the protocol's
 * hello/welcome, or a status request) on it as a {@link Transport}. The whole must finish within
 * `timeoutMs`. Rejects with `NO_PROVIDER` (`cannot reach the Ask User Companion at <url> (<why>)` and
 * how to start one) when the endpoint cannot be reached, answers HTTP instead of upgrading, does not
 * select the subprotocol, cannot prove itself ("cannot verify the companion on this port": a squatter
 * on a dead companion's port gets neither the token nor a frame), or `greet` fails; the socket is then
 * dropped at once, without a closing handshake.
 */
export function dialCompanion<T>(
  endpoint: Endpoint,
  timeoutMs: number,
  greet: (transport: Transport) => Promise<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const clientNonce = newNonce()
    const socket = new WebSocket(endpoint.url, [AGENT_PROOF_SUBPROTOCOL, NONCE_SUBPROTOCOL_PREFIX + clientNonce], {
      perMessageDeflate: false,
      handshakeTimeout: timeoutMs,
      followRedirects: false,
    })
    let done = false
    const settle = (): boolean => {
      if (done) return false
      done = true
      clearTimeout(timer)
      socket.off('unexpected-response', onResponse).off('error', onError).off('close', onClose).off('open', onOpen)
      return true
    }
    const fail = (why: string, cause?: unknown, staleToken = false): void => {
      if (!settle()) return
      socket.removeAllListeners()
      socket.on('error', () => undefined)
      socket.terminate()
      const message = `cannot reach the Ask User Companion at ${endpoint.url} (${why})`
      reject(staleToken ? staleTokenError(message, endpoint) : noCompanion(message, cause))
    }
    const onResponse = (_req: unknown, res: { statusCode?: number }): void => {
      const stale = res.statusCode === 401
      fail(`it answered HTTP ${res.statusCode ?? '?'}${stale ? '; the token is stale' : ''}`, undefined, stale)
    }
    const onError = (error: NodeJS.ErrnoException): void => fail(error.code ?? error.message, error)
    const onClose = (code: number): void => fail(`connection closed with code ${code} before the welcome`)
    const onOpen = (): void => {
      if (socket.protocol !== AGENT_PROOF_SUBPROTOCOL)
        return fail(
          `it did not accept subprotocol ${AGENT_PROOF_SUBPROTOCOL}; is the companion older than this client?`,
        )
      socket.once('message', (data, isBinary) => {
        proveBothWays(socket, endpoint.token, clientNonce, isBinary ? undefined : data.toString()).then(
          (proven) =>
            proven
              ? greetOn()
              : fail(
                  'cannot verify the companion on this port: it did not prove that it holds the token; the token is stale, or another program has the port',
                  undefined,
                  true,
                ),
          (error: unknown) => fail(errorMessage(error), error),
        )
      })
    }
    const greetOn = (): void => {
      if (done) return
      greet(clientTransport(socket)).then(
        (value) => {
          if (settle()) resolve(value)
        },
        (error: unknown) => fail(errorMessage(error), error),
      )
    }
    const timer = setTimeout(() => fail(`no welcome within ${timeoutMs} ms`), timeoutMs)
    socket.once('unexpected-response', onResponse)
    socket.once('error', onError)
    socket.once('close', onClose)
    socket.once('open', onOpen)
  })
}

/** Checks the companion's proof (`text`); when it holds, sends this client's `prove` and returns true. */
async function proveBothWays(
  socket: WebSocket,
  token: string,
  clientNonce: string,
  text: string | undefined,
): Promise<boolean> {
  const prove = await answerProof(token, 'agent', clientNonce, text)
  if (prove === undefined || socket.readyState !== WebSocket.OPEN) return false
  socket.send(prove)
  return true
}

/** The {@link Transport} over an open client WebSocket. */
function clientTransport(socket: WebSocket): Transport {
  const transport: Transport = {
    onmessage: undefined,
    onclose: undefined,
    send: (text) => {
      if (socket.readyState !== WebSocket.OPEN) return false
      socket.send(text)
      return true
    },
    close: (code, reason) => socket.close(code, reason),
  }
  socket.on('message', (data, isBinary) =>
    transport.onmessage?.(isBinary ? { kind: 'binary' } : { kind: 'text', text: data.toString() }),
  )
  socket.once('close', (code, reason) => transport.onclose?.(code, reason.toString()))
  socket.on('error', () => {
    /* 'close' follows and reaches onclose */
  })
  return transport
}
