// The replies `ask-user mcp` can give before the MCP SDK and zod have loaded: a 2025-era opening's
// `initialize` and `tools/list`, from values precomputed at build time (cli/mcp/mcp-precomputed.json).
// A 2026-07-28 opening has no `initialize` and is the SDK's from its first line. Anything this module
// is not sure the SDK would answer in exactly the same bytes it leaves to the SDK (`handover`), so a
// session's wire is the same whichever side answered.
import precomputed from './mcp-precomputed.json'
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME, mcpServerCapabilities } from './mcp-identity'

/** A JSON-RPC request id as the SDK accepts it: a string or a (safe) integer. */
export type RequestId = string | number

/**
 * What to do with one line of stdin:
 * - `reply`: write `line` (a whole JSON-RPC response, `\n`-terminated), the SDK's answer to request `id`;
 * - `quiet`: a notification the SDK would take without a word (`notifications/initialized`);
 * - `handover`: the SDK must see this line and everything after it.
 */
export type EarlyStep =
  { kind: 'reply'; id: RequestId; line: string; last: boolean } | { kind: 'quiet' } | { kind: 'handover' }

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function onlyKeys(value: Json, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key))
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
}

/** The client capabilities whose every accepted form the SDK surely takes: `{}`, and roots' `listChanged`. */
function plainCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false
  return Object.entries(value).every(([key, cap]) => {
    if (key === 'sampling' || key === 'elicitation') return isEmptyObject(cap)
    if (key === 'roots')
      return (
        isObject(cap) &&
        onlyKeys(cap, ['listChanged']) &&
        (cap['listChanged'] === undefined || typeof cap['listChanged'] === 'boolean')
      )
    return false
  })
}

function plainClientInfo(value: unknown): boolean {
  return (
    isObject(value) &&
    onlyKeys(value, ['name', 'version', 'title']) &&
    typeof value['name'] === 'string' &&
    typeof value['version'] === 'string' &&
    (value['title'] === undefined || typeof value['title'] === 'string')
  )
}

/** A request `{jsonrpc, id, method, params?}` with nothing else, or undefined. */
function request(message: Json, method: string): { id: RequestId; params: unknown } | undefined {
  if (
    !onlyKeys(message, ['jsonrpc', 'id', 'method', 'params']) ||
    message['jsonrpc'] !== '2.0' ||
    message['method'] !== method
  )
    return undefined
  const id = message['id']
  return isRequestId(id) ? { id, params: message['params'] } : undefined
}

/** The SDK's stdio serialization of a result: `{result, jsonrpc, id}` as one JSON line. */
function resultLine(id: RequestId, result: unknown): string {
  return `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`
}

/** The protocol version the SDK's server answers to a client asking for `requested`. */
export function negotiatedVersion(requested: string): string {
  const { latest, supported } = precomputed.protocolVersions
  return supported.includes(requested) ? requested : latest
}

/**
 * Answers the opening of an MCP session, line by line, until the first line it leaves to the SDK or
 * until `tools/list` is answered (`last`); it answers nothing after that. `version` is the server's version.
 */
export class EarlyReplies {
  #initialized = false
  #done = false

  constructor(private readonly version: string) {}

  /** What to do with one line of stdin (its `\n` and a trailing `\r` removed, as the SDK reads it). */
  step(line: string): EarlyStep {
    const step = this.#done ? undefined : this.#classify(line)
    if (step === undefined) {
      this.#done = true
      return { kind: 'handover' }
    }
    if (step.kind === 'reply' && step.last) this.#done = true
    return step
  }

  #classify(line: string): EarlyStep | undefined {
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      return undefined
    }
    if (!isObject(message)) return undefined
    if (!this.#initialized) {
      const init = request(message, 'initialize')
      if (!init || !isObject(init.params) || !onlyKeys(init.params, ['protocolVersion', 'capabilities', 'clientInfo']))
        return undefined
      const { protocolVersion, capabilities, clientInfo } = init.params
      if (typeof protocolVersion !== 'string' || !plainCapabilities(capabilities) || !plainClientInfo(clientInfo))
        return undefined
      this.#initialized = true
      const result = {
        protocolVersion: negotiatedVersion(protocolVersion),
        capabilities: mcpServerCapabilities(),
        serverInfo: { name: MCP_SERVER_NAME, version: this.version },
        instructions: MCP_INSTRUCTIONS,
      }
      return { kind: 'reply', id: init.id, line: resultLine(init.id, result), last: false }
    }
    if (message['method'] === 'notifications/initialized') {
      const fine =
        onlyKeys(message, ['jsonrpc', 'method', 'params']) &&
        message['jsonrpc'] === '2.0' &&
        (message['params'] === undefined || isEmptyObject(message['params']))
      return fine ? { kind: 'quiet' } : undefined
    }
    const list = request(message, 'tools/list')
    if (!list || (list.params !== undefined && !isEmptyObject(list.params))) return undefined
    return { kind: 'reply', id: list.id, line: resultLine(list.id, { tools: precomputed.tools }), last: true }
  }
}
