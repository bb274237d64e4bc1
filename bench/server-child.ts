// The server half of the benchmark, in its own Node process (started by ServerChild in util.ts with
// --expose-gc): either the real companion core or the floor relay. Reports its endpoints over IPC,
// then answers `mem` (process.memoryUsage() after forced GC), `pending` and `close`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startCompanion } from '../core/index'
import { startFloorRelay } from './floor-relay'

interface Options {
  mode: 'core' | 'floor'
  staticDir?: string
  settings?: Record<string, unknown>
  /** The floor relay also replies to the windows as protocol v1 does (floor-relay.ts). */
  windowReplies?: 'v1'
  /** `profile-start` / `profile-stop` write a CPU profile of the steady state only into this folder. */
  steadyProfileDir?: string
}

/** V8's sampling profiler over the inspector, 50 µs interval (a round trip is ~60 µs). */
function steadyProfiler(dir: string, label: string): { start(): Promise<void>; stop(): Promise<string> } {
  const session = new Session()
  session.connect()
  const post = (method: string, params?: object): Promise<any> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    )
  return {
    async start() {
      await post('Profiler.enable')
      await post('Profiler.setSamplingInterval', { interval: 50 })
      await post('Profiler.start')
    },
    async stop() {
      const { profile } = await post('Profiler.stop')
      const file = join(dir, `steady-${label}-${process.pid}.cpuprofile`)
      writeFileSync(file, JSON.stringify(profile))
      return file
    },
  }
}

const send = (m: unknown): void => {
  process.send?.(m)
}

function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) return
  for (let i = 0; i < 3; i++) gc()
}

async function main(): Promise<void> {
  const options = JSON.parse(process.env.BENCH_SERVER ?? '{}') as Options
  let close: () => Promise<void>
  let pending: () => number = () => 0
  let info: Record<string, unknown>
  let home: string | undefined
  let link: () => string | undefined = () => undefined
  if (options.mode === 'floor') {
    const relay = await startFloorRelay(options.windowReplies ? { windowReplies: options.windowReplies } : {})
    close = relay.close
    info = {
      mode: 'floor',
      port: relay.port,
      token: 'floor',
      windowToken: 'floor',
      agentUrl: relay.agentUrl,
      uiUrl: relay.uiUrl,
    }
  } else {
    home = mkdtempSync(join(tmpdir(), 'ask-user-bench-'))
    const core: any = await startCompanion({
      home,
      port: 0,
      staticDir: options.staticDir,
      writeDiscovery: false,
      ...(options.settings ? { settings: options.settings } : {}),
    } as any)
    close = async () => {
      await core.close()
    }
    pending = () => {
      const p = core.pending()
      return typeof p === 'number' ? p : Array.isArray(p) ? p.length : (p?.size ?? Number.NaN)
    }
    info = {
      mode: 'core',
      port: core.port,
      token: core.token,
      windowToken: core.windowCredential(),
      agentUrl: core.agentUrl,
      uiUrl: core.uiUrl,
    }
    link = () => core.windowLink()
  }
  const label = options.mode === 'floor' ? (options.windowReplies ? `floor-${options.windowReplies}` : 'floor') : 'core'
  const profiler = options.steadyProfileDir ? steadyProfiler(options.steadyProfileDir, label) : undefined
  process.on('message', (m: any) => {
    if (m?.type === 'profile-start' && profiler) {
      void profiler.start().then(() => send({ seq: m.seq, value: true }))
    } else if (m?.type === 'profile-stop' && profiler) {
      void profiler.stop().then((file) => send({ seq: m.seq, value: file }))
    } else if (m?.type === 'link') {
      send({ seq: m.seq, value: link() })
    } else if (m?.type === 'mem') {
      fullGc()
      send({ seq: m.seq, value: process.memoryUsage() })
    } else if (m?.type === 'cpu') {
      send({ seq: m.seq, value: process.cpuUsage() })
    } else if (m?.type === 'pending') {
      send({ seq: m.seq, value: pending() })
    } else if (m?.type === 'close') {
      const done = (): void => {
        if (home) rmSync(home, { recursive: true, force: true })
        process.exit(0)
      }
      setTimeout(done, 5_000).unref()
      close().then(done, done)
    }
  })
  process.on('disconnect', () => process.exit(0))
  send({ type: 'ready', info })
}

main().catch((error: unknown) => {
  send({ type: 'error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  process.exit(1)
})
