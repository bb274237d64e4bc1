// web-push-testing (the push service stand-in: it decrypts what it is sent, RFC 8291) run in a private
// network namespace, because it binds every interface. The test process cannot enter a namespace, so the
// service runs in a child process there (`ip netns exec`), and is reached only through a Unix socket
// (file paths are not namespaced) and a forwarder on 127.0.0.1 in this process: nothing but loopback
// ever sees it. Needs root and `ip netns`; `pushServiceSkipReason()` says why not otherwise.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// From the repository root: test/helpers/ here, out/bench/ once bundled into the bench (both two levels down).
const PACKAGE_SRC = join(__dirname, '..', '..', 'node_modules', 'web-push-testing', 'src')
const SERVER_JS = join(PACKAGE_SRC, 'server.js')
const MODEL_JS = join(PACKAGE_SRC, 'PushApiModel.js')

function ip(...args: string[]): string | undefined {
  const run = spawnSync('ip', args, { encoding: 'utf8' })
  return run.status === 0 ? undefined : `ip ${args.join(' ')}: ${(run.stderr || run.error?.message || '').trim()}`
}

/** Why the push service cannot run here (no Linux, no root, `ip netns` refused), or undefined. */
export function pushServiceSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces are Linux only'
  const probe = `aupprobe${process.pid % 100_000}`
  const refused = ip('netns', 'add', probe)
  if (refused) return `ip netns is refused here (${refused})`
  ip('netns', 'del', probe)
  return undefined
}

// Runs inside the namespace: the service on <port> (every interface of the namespace: only its own
// loopback), and a Unix socket that forwards to it.
const CHILD = `
const net = require('node:net')
const [port, socketPath, serverJs, modelJs] = process.argv.slice(1)
const Server = require(serverJs)
const { PushApiModel } = require(modelJs)
const service = new Server(new PushApiModel(), Number(port))
console.log = () => {}
service.startServer()
service._server.on('listening', () => {
  net.createServer((client) => {
    const upstream = net.createConnection({ host: '127.0.0.1', port: Number(port) })
    for (const s of [client, upstream]) s.on('error', () => { client.destroy(); upstream.destroy() })
    client.pipe(upstream).pipe(client)
  }).listen(socketPath, () => process.stdout.write('ready\\n'))
})
`

/** A subscription the stand-in made (as `PushSubscription.toJSON()`) and its handle at the service. */
export interface StandInSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
  clientHash: string
}

/** The running stand-in. */
export interface PushService {
  /** `http://127.0.0.1:<port>`: the forwarder in this process. */
  url: string
  /** Subscribes as a browser would with `applicationServerKey` = `vapidPublic`. */
  subscribe(vapidPublic: string): Promise<StandInSubscription>
  /** The payloads the service decrypted for `clientHash`, in order (UTF-8 text). */
  messages(clientHash: string): Promise<string[]>
  /** Marks the subscription expired: the next push to it gets 410. */
  expire(clientHash: string): Promise<void>
  stop(): Promise<void>
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`)
  return text === 'OK' || text === '' ? undefined : (JSON.parse(text) as unknown)
}

/** Starts web-push-testing in a fresh network namespace. */
export async function startPushService(): Promise<PushService> {
  const ns = `aupush${process.pid % 100_000}${Math.floor(Math.random() * 1000)}`
  const dir = await mkdtemp(join(tmpdir(), 'push-service-'))
  const socketPath = join(dir, 'service.sock')
  const sockets = new Set<Socket>()
  let child: ChildProcess | undefined
  let forwarder: Server | undefined
  const stop = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => (forwarder ? forwarder.close(() => resolve()) : resolve()))
    ip('netns', 'del', ns)
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const failed = ip('netns', 'add', ns) ?? ip('-n', ns, 'link', 'set', 'lo', 'up')
    if (failed) throw new Error(failed)
    forwarder = createServer((client) => {
      const upstream = createConnection({ path: socketPath })
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => socket.destroy())
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => forwarder!.listen(0, '127.0.0.1', resolve))
    const address = forwarder.address()
    if (address === null || typeof address === 'string') throw new Error('the forwarder has no port')
    // The same port number inside the namespace: the endpoints the service hands out then work here too.
    const port = address.port
    child = spawn(
      'ip',
      ['netns', 'exec', ns, process.execPath, '-e', CHILD, String(port), socketPath, SERVER_JS, MODEL_JS],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    await new Promise<void>((resolve, reject) => {
      let out = ''
      child!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        if (out.includes('ready')) resolve()
      })
      child!.once('exit', (code) => reject(new Error(`the push service exited (${code}) before it was ready`)))
    })
    const url = `http://127.0.0.1:${port}`
    return {
      url,
      async subscribe(vapidPublic) {
        const reply = (await post(`${url}/subscribe`, {
          userVisibleOnly: 'true',
          applicationServerKey: vapidPublic,
        })) as { data: StandInSubscription }
        // It names itself `localhost`; this side reaches it on 127.0.0.1 only.
        return { ...reply.data, endpoint: reply.data.endpoint.replace('//localhost:', '//127.0.0.1:') }
      },
      async messages(clientHash) {
        const reply = (await post(`${url}/get-notifications`, { clientHash })) as { data: { messages: string[] } }
        return reply.data.messages
      },
      async expire(clientHash) {
        await post(`${url}/expire-subscription/${clientHash}`, {})
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
