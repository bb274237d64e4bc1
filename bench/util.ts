// Shared plumbing of the benchmark: bounded waits, WebSocket connections, the server child process.
import { fork, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { AGENT_PROOF_SUBPROTOCOL, NONCE_SUBPROTOCOL_PREFIX, answerProof, newNonce } from '../shared/proof'
import { UI_SUBPROTOCOL } from '../shared/ui'
import { AGENT_SUBPROTOCOL } from '../shared/wire'

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Rejects after `ms` with a message naming what was awaited; every wait in the bench is bounded. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Starts a WebSocket to the companion (or the floor relay) the way a script does. */
function startSocket(
  url: string,
  subprotocol: string,
  token: string,
  timeoutMs: number,
): { ws: WebSocket; opened: Promise<WebSocket> } {
  const ws = new WebSocket(url, subprotocol, {
    headers: { Authorization: `Bearer ${token}` },
    perMessageDeflate: false,
  })
  const opened = withTimeout(
    new Promise<WebSocket>((resolve, reject) => {
      ws.once('open', () => resolve(ws))
      ws.once('error', reject)
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode} from ${url}`)))
    }),
    timeoutMs,
    `connection to ${url}`,
  )
  return { ws, opened }
}

/** Opens a WebSocket to the companion (or the floor relay) the way a script does. */
export function openSocket(url: string, subprotocol: string, token: string, timeoutMs = 10_000): Promise<WebSocket> {
  return startSocket(url, subprotocol, token, timeoutMs).opened
}

/** Parses one text frame. */
export const parse = (data: unknown): any => JSON.parse(String(data))

/** Waits for the next frame matching `pred` on `ws`. */
export function nextFrame(ws: WebSocket, pred: (f: any) => boolean, ms: number, what: string): Promise<any> {
  return withTimeout(
    new Promise<any>((resolve) => {
      const on = (data: unknown): void => {
        const f = parse(data)
        if (pred(f)) {
          ws.off('message', on)
          resolve(f)
        }
      }
      ws.on('message', on)
    }),
    ms,
    what,
  )
}

/**
 * An agent connection as our clients open it: under the proof subprotocol, the companion's proof
 * received (and its MAC computed, as a client checks it), `prove` and `hello` sent, welcome received.
 * The floor relay has no proof: it is dialled with the bearer token as before.
 */
export async function openAgent(
  url: string,
  token: string,
  name = 'bench',
  mode: 'core' | 'floor' = token === 'floor' ? 'floor' : 'core',
): Promise<WebSocket> {
  const ws = mode === 'core' ? await proveToCore(url, token) : await openSocket(url, AGENT_SUBPROTOCOL, token)
  const welcome = nextFrame(ws, (f) => f.type === 'welcome' || f.type === 'error', 10_000, 'welcome')
  ws.send(JSON.stringify({ type: 'hello', protocol: 1, client: { name, pid: process.pid } }))
  const f = await welcome
  if (f.type !== 'welcome') throw new Error(`agent hello refused: ${JSON.stringify(f)}`)
  return ws
}

async function proveToCore(url: string, token: string): Promise<WebSocket> {
  const nonce = newNonce()
  const ws = new WebSocket(url, [AGENT_PROOF_SUBPROTOCOL, NONCE_SUBPROTOCOL_PREFIX + nonce], {
    perMessageDeflate: false,
  })
  const proof = nextFrame(ws, (f) => f.type === 'proof', 10_000, 'proof')
  proof.catch(() => undefined)
  // The client's side exactly as our clients run it (shared/proof.ts).
  const prove = await answerProof(token, 'agent', nonce, JSON.stringify(await proof))
  if (prove === undefined) throw new Error('the companion did not prove itself')
  ws.send(prove)
  return ws
}

/**
 * A window connection on the UI channel: opened, snapshot received. The snapshot listener is added
 * before the socket opens: the companion sends the snapshot at once, and it can arrive in the same
 * read as the handshake response (ws then emits it before an `await` after 'open' resumes).
 */
export async function openWindow(url: string, token: string): Promise<{ ws: WebSocket; snapshot: any }> {
  const { ws, opened } = startSocket(url, UI_SUBPROTOCOL, token, 10_000)
  const snapshot = nextFrame(ws, (f) => f.type === 'snapshot', 15_000, 'snapshot')
  snapshot.catch(() => undefined)
  await opened
  return { ws, snapshot: await snapshot }
}

export function closeSocket(ws: WebSocket, ms = 2_000): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      ws.terminate()
      resolve()
    }, ms)
    ws.once('close', () => {
      clearTimeout(t)
      resolve()
    })
    ws.close()
  })
}

export interface ServerInfo {
  mode: 'core' | 'floor'
  port: number
  token: string
  /** The window credential (the agent token does not open windows). */
  windowToken: string
  agentUrl: string
  uiUrl: string
}

export interface Memory {
  rss: number
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
}

/**
 * A server (the real core or the floor relay) in its own Node process, started with --expose-gc,
 * driven over IPC: `mem` (after forced GC), `pending` and `close`.
 */
export class ServerChild {
  private seq = 0
  private readonly waiting = new Map<number, (value: any) => void>()
  private constructor(
    readonly child: ChildProcess,
    readonly info: ServerInfo,
    private readonly steadyProfiling = false,
  ) {
    child.on('message', (m: any) => {
      const resolve = this.waiting.get(m?.seq)
      if (resolve) {
        this.waiting.delete(m.seq)
        resolve(m.value)
      }
    })
  }

  static async start(
    mode: 'core' | 'floor',
    options: {
      staticDir?: string
      settings?: unknown
      cpuProf?: string
      script?: string
      windowReplies?: 'v1'
      /** Profile only between profileStart() and profileStop() (the round trip's measured phase). */
      steadyProfileDir?: string
    } = {},
  ): Promise<ServerChild> {
    const execArgv = ['--expose-gc']
    // A 50 µs sampling interval: a round trip is ~100 µs, the default 1 ms would miss most of it.
    if (options.cpuProf) execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`, '--cpu-prof-interval=50')
    const { script, ...serverOptions } = options
    const child = fork(script ?? join(__dirname, 'server-child.js'), [], {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_SERVER: JSON.stringify({ mode, ...serverOptions }) },
    })
    const info = await withTimeout(
      new Promise<ServerInfo>((resolve, reject) => {
        child.once('message', (m: any) =>
          m?.type === 'ready' ? resolve(m.info) : reject(new Error(m?.error ?? 'bad ready message')),
        )
        child.once('exit', (code) => reject(new Error(`${mode} server exited early (code ${code})`)))
        child.once('error', reject)
      }),
      20_000,
      `${mode} server to start`,
    )
    return new ServerChild(child, info, options.steadyProfileDir !== undefined)
  }

  request<T>(type: string, ms = 20_000): Promise<T> {
    const seq = ++this.seq
    return withTimeout(
      new Promise<T>((resolve) => {
        this.waiting.set(seq, resolve)
        this.child.send({ type, seq })
      }),
      ms,
      `${this.info.mode} server reply to ${type}`,
    )
  }

  /** A fresh one-time page link (`#code=…`) of the core; undefined for the floor. */
  pageLink(): Promise<string | undefined> {
    return this.request<string | undefined>('link')
  }

  memory(): Promise<Memory> {
    return this.request<Memory>('mem')
  }

  /** CPU time (user + system) the server process has used so far, in microseconds. */
  async cpuMicros(): Promise<number> {
    const u = await this.request<{ user: number; system: number }>('cpu')
    return u.user + u.system
  }

  /** Starts the steady-state profiler; does nothing for a server started without `steadyProfileDir`. */
  async profileStart(): Promise<void> {
    if (this.steadyProfiling) await this.request<boolean>('profile-start')
  }

  /** Stops it and returns the profile's path. */
  async profileStop(): Promise<string | undefined> {
    return this.steadyProfiling ? this.request<string>('profile-stop') : undefined
  }

  pending(): Promise<number> {
    return this.request<number>('pending')
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()))
    this.child.send({ type: 'close', seq: ++this.seq })
    try {
      await withTimeout(exited, 10_000, `${this.info.mode} server to exit`)
    } catch {
      this.child.kill('SIGKILL')
    }
  }
}
