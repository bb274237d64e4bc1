// A fake of Electron's `net`. `net.request` makes a real HTTP request with Node's http
// (Electron's ClientRequest emits the same `response`, `redirect`, `error` and `abort`, and its
// response is a readable stream with statusCode and headers), so electron-updater can download from a
// feed on 127.0.0.1 as it would through Chromium's network stack.
import { EventEmitter } from 'node:events'
import { request as httpRequest, type ClientRequest as NodeClientRequest } from 'node:http'
import { registerFake } from './strict-electron'
import type { Assert, ElectronMembersOnly } from './strict-electron'

/** The options of `net.request` the fake honours (what electron-updater's HttpExecutor passes). */
interface RequestOptions {
  protocol?: string
  hostname?: string
  host?: string
  port?: number | string
  path?: string
  method?: string
  headers?: Record<string, string | string[]>
  redirect?: 'follow' | 'manual' | 'error'
}

/**
 * A `ClientRequest` over Node's http. Not a strict view: library code (builder-util-runtime)
 * subscribes to Node's own `socket` and `aborted` events on it, which Electron's request never emits
 * and a real one silently accepts.
 */
export class FakeClientRequest extends EventEmitter {
  readonly #request: NodeClientRequest
  constructor(options: RequestOptions) {
    super()
    const port = options.port === undefined ? undefined : Number(options.port)
    this.#request = httpRequest({
      protocol: options.protocol ?? 'http:',
      hostname: options.hostname ?? options.host,
      port,
      path: options.path,
      method: options.method ?? 'GET',
      headers: options.headers,
    })
    this.#request.on('response', (response) => {
      const location = response.headers.location
      if (
        options.redirect === 'manual' &&
        response.statusCode !== undefined &&
        response.statusCode >= 300 &&
        response.statusCode < 400 &&
        location
      ) {
        response.resume()
        this.emit('redirect', response.statusCode, options.method ?? 'GET', location, response.headers)
        return
      }
      this.emit('response', response)
    })
    this.#request.on('error', (error) => this.emit('error', error))
  }
  setHeader(name: string, value: string): void {
    this.#request.setHeader(name, value)
  }
  write(chunk: string | Buffer): void {
    this.#request.write(chunk)
  }
  end(): this {
    this.#request.end()
    return this
  }
  abort(): void {
    this.#request.destroy()
    this.emit('abort')
  }
}

/** A fake `net`: `request()` goes out over Node's http; every request is recorded. */
export function fakeNet() {
  const net = {
    requests: [] as RequestOptions[],
    request: (options: RequestOptions | string): FakeClientRequest => {
      const parsed = typeof options === 'string' ? urlOptions(options) : options
      net.requests.push(parsed)
      return new FakeClientRequest(parsed)
    },
  }
  return registerFake(net, 'Net')
}
export type FakeNetIsElectron = Assert<ElectronMembersOnly<ReturnType<typeof fakeNet>, Electron.Net, 'requests'>>

function urlOptions(url: string): RequestOptions {
  const parsed = new URL(url)
  return {
    protocol: parsed.protocol,
    hostname: parsed.hostname,
    port: parsed.port,
    path: `${parsed.pathname}${parsed.search}`,
  }
}
