// `npm run bench` (scripts/bench.mjs builds this into out/bench/main.js and runs it).
// Measures the companion against the loopback floor and prints one table; `--json [FILE]` also
// writes everything measured as JSON; `--quick` is a smaller run (under a minute).
// A benchmark, not a test: it never fails on its numbers (exit 1 only if it could not run at all).
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, freemem, loadavg, totalmem } from 'node:os'
import { dirname, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseBenchArgs, USAGE } from './args'
import { runBrowser } from './browser'
import { runClaudeHooks } from './claude-hooks'
import { runCli } from './cli'
import { runMarkdown } from './markdown'
import { runPhoneFirstScreen } from './phone-first-screen'
import { runPush } from './push'
import { runRelay } from './relay'
import { failed, tableOf, type Results } from './measurements'
import { formatTable } from './report'
import { runRoundTrip } from './roundtrip'
import { medianRows } from './runs'
import { runScale } from './scale'
import { runGrowth } from './growth'
import { runStartup } from './startup'
import { ServerChild } from './util'

const ROOT = resolve(__dirname, '..', '..')

// BENCH_STATIC_DIR measures another build of the renderer (e.g. an experiment) with the same bench.
const staticDir = process.env.BENCH_STATIC_DIR
  ? resolve(process.env.BENCH_STATIC_DIR)
  : resolve(ROOT, 'out', 'renderer')

async function section<T>(name: string, run: () => Promise<T>): Promise<T | { error: string }> {
  const t0 = performance.now()
  process.stderr.write(`bench: ${name} ...\n`)
  try {
    const result = await run()
    process.stderr.write(`bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
    return result
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`bench: ${name} FAILED: ${message}\n`)
    return { error: message }
  }
}

function roundDeep(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 1000) / 1000
  if (Array.isArray(value)) return value.map(roundDeep)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v)]))
  return value
}

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2), ROOT)
  if (args.help) {
    console.log(USAGE)
    return
  }
  const q = args.quick
  const started = new Date()
  const t0 = performance.now()
  const machine = {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavgStart: loadavg().map((l) => Math.round(l * 100) / 100),
    chromium: undefined as string | undefined,
    loadavgEnd: undefined as number[] | undefined,
  }
  const runs: Results[] = []
  const settings = args.noHistory ? { history: false } : undefined
  if (args.noHistory) process.stderr.write('bench: the core runs with settings.history off (--no-history)\n')
  for (let run = 1; run <= args.runs; run++) {
    if (args.runs > 1) process.stderr.write(`bench: run ${run} of ${args.runs}\n`)
    const results: Results = {}
    runs.push(results)

    if (args.only.has('roundtrip')) {
      const roundTripOpts = { warmup: q ? 300 : 3000, samples: q ? 2000 : 10000, blockSize: 250 }
      results.roundtrip = await section('round trip (floor vs core, alternating blocks)', async () => {
        // With --cpu-prof=DIR, every server is profiled over the measured phase only (no start-up, no
        // warm-up), so that their profiles compare like for like.
        const steadyProfileDir = args.cpuProf
        const floor = await ServerChild.start('floor', { steadyProfileDir })
        const floorV1 = await ServerChild.start('floor', { windowReplies: 'v1', steadyProfileDir })
        const core = await ServerChild.start('core', { staticDir, settings, steadyProfileDir })
        try {
          // A warm-up long enough for the steady state: a short one measures V8 compiling our code, which
          // the floor's few lines do not need.
          return await runRoundTrip(floor, core, roundTripOpts, { floorV1 })
        } finally {
          for (const server of [floor, floorV1, core]) await server.close()
        }
      })
    }
    if (args.only.has('scale')) {
      const opts = { agents: q ? 200 : 1000, asksPerAgent: 10 }
      results.scale = await section(`scale (core, ${opts.agents} agents × ${opts.asksPerAgent})`, async () => {
        const core = await ServerChild.start('core', { staticDir, settings, steadyProfileDir: args.cpuProf })
        try {
          return await runScale(core, opts)
        } finally {
          await core.close()
        }
      })
      results.scaleFloor = await section(
        `scale (floor relay, ${opts.agents} agents × ${opts.asksPerAgent})`,
        async () => {
          const floor = await ServerChild.start('floor', { steadyProfileDir: args.cpuProf })
          try {
            return await runScale(floor, opts)
          } finally {
            await floor.close()
          }
        },
      )
    }
    if (args.only.has('browser')) {
      results.browser = await section('the person’s side (Chromium)', async () => {
        const core = await ServerChild.start('core', { staticDir, settings, cpuProf: args.cpuProf })
        try {
          return await runBrowser(core, {
            asks: args.visibleAsks ?? (q ? 40 : 200),
            inboxSizes: q ? [1000] : [100, 1000, 10000],
            inboxLoads: args.inboxLoads ?? (q ? 2 : 3),
            navSteps: q ? 10 : 30,
            profileDir: args.cpuProf,
          })
        } finally {
          await core.close()
        }
      })
      if (results.browser && !failed(results.browser)) machine.chromium = results.browser.chromiumVersion
    }
    if (args.only.has('cli')) {
      results.cli = await section('CLI (ask-user ask vs node -e 0)', async () => {
        const core = await ServerChild.start('core', { staticDir, settings })
        try {
          return await runCli(core, { runs: q ? 5 : 20, root: ROOT, profileDir: args.cpuProf })
        } finally {
          await core.close()
        }
      })
    }
    if (args.only.has('growth')) {
      results.growth = await section('cost growth (core: 100, 1,000, 10,000 pending asks)', () =>
        runGrowth(q ? [100, 1000] : [100, 1000, 10000], () => ServerChild.start('core', { staticDir, settings })),
      )
    }
    if (args.only.has('markdown')) {
      // In this process: no server, nothing else running (the sections above have closed theirs).
      results.markdown = await section('hostile Markdown (ours vs markdown-it, 200,000 characters)', async () =>
        runMarkdown({ chars: 200_000, samples: q ? 5 : 11 }),
      )
    }
    if (args.only.has('startup')) {
      results.startup = await section('start-up (ask-user mcp / hook vs node -e 0)', async () => {
        const core = await ServerChild.start('core', { staticDir, settings })
        try {
          return await runStartup(core, { runs: q ? 5 : 15, root: ROOT, profileDir: args.cpuProf })
        } finally {
          await core.close()
        }
      })
    }
    if (args.only.has('claude-hooks')) {
      const calls = q ? 20 : 50
      results.claudeHooks = await section(
        `Claude Code hooks (${calls} tool calls: mcp_tool vs command hook)`,
        async () => {
          const core = await ServerChild.start('core', { staticDir, settings })
          try {
            return await runClaudeHooks(core, { calls, root: ROOT })
          } finally {
            await core.close()
          }
        },
      )
    }
    if (args.only.has('relay')) {
      const relayOpts = { samples: q ? 30 : 200, pendingAsks: 1000, agents: 50 }
      results.relay = await section('relay (real nats-server)', () => runRelay(relayOpts))
    }
    if (args.only.has('push')) {
      results.push = await section('push (web-push-testing in a network namespace)', () =>
        runPush({ samples: q ? 30 : 200 }),
      )
    }
    if (args.only.has('phone')) {
      // Needs out/phone: `npx vite build -c vite.phone.config.mts` (npm run build makes it).
      results.phone = await section('phone first screen (Chromium, CPU 4× slower)', () =>
        runPhoneFirstScreen(resolve(ROOT, 'out', 'phone'), 20, args.cpuProf),
      )
    }
  }

  machine.loadavgEnd = loadavg().map((l) => Math.round(l * 100) / 100)
  const table = medianRows(runs.map(tableOf))
  const elapsed = (performance.now() - t0) / 1000
  console.log('')
  console.log(
    `Ask User Companion bench — ${started.toISOString()}${q ? ' (quick)' : ''}${args.runs > 1 ? `, medians of ${args.runs} runs [min–max]` : ''}`,
  )
  console.log(
    `${machine.nproc} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}${machine.chromium ? `, Chromium ${machine.chromium}` : ''}; load ${machine.loadavgStart.join(' ')} → ${machine.loadavgEnd.join(' ')}`,
  )
  console.log('')
  console.log(formatTable(table))
  console.log('')
  console.log(`(${elapsed.toFixed(1)} s)`)

  if (args.json) {
    mkdirSync(dirname(args.json), { recursive: true })
    writeFileSync(
      args.json,
      `${JSON.stringify(roundDeep({ startedAt: started.toISOString(), quick: q, runs: args.runs, elapsedSeconds: elapsed, machine, table, results: runs.length === 1 ? runs[0] : runs }), null, 2)}\n`,
    )
    console.log(`JSON written to ${args.json}`)
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
