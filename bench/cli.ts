// 4. The CLI: wall time of `node bin/ask-user.js ask ...` answered at once by a scripted window on
// the UI channel, beside `node -e 0` (the cost of starting Node at all) and `ask-user --version`
// (the cost of loading the CLI without asking). Runs alternate so background load hits all alike.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { median, round, summarize, type Summary } from './stats'
import { closeSocket, openWindow, parse, type ServerChild } from './util'

export interface CliResult {
  runs: number
  nodeE0: Summary
  version: Summary
  ask: Summary
  ratio: number
  failures: string[]
}

function timeRun(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ ms: number; code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.on('close', (code) => {
      clearTimeout(kill)
      resolve({ ms: performance.now() - t0, code, out, err })
    })
  })
}

export async function runCli(
  server: ServerChild,
  opts: { runs: number; root: string; profileDir?: string },
): Promise<CliResult> {
  const { ws: window } = await openWindow(server.info.uiUrl, server.info.windowToken)
  window.on('message', (data) => {
    const f = parse(data)
    if (f.type === 'ask/added') {
      const q = f.ask.questions[0]
      window.send(
        JSON.stringify({
          type: 'ask/answer',
          askId: f.ask.askId,
          answers: [{ id: q.id, selected: [q.options[0].label] }],
        }),
      )
    }
  })
  const home = mkdtempSync(join(tmpdir(), 'ask-user-bench-cli-'))
  const env = {
    ...process.env,
    ASK_USER_HOME: home,
    ASK_USER_URL: server.info.agentUrl,
    ASK_USER_TOKEN: server.info.token,
  }
  const bin = join(opts.root, 'bin', 'ask-user.js')
  const askArgs = [bin, 'ask', '--question', 'Ship the release?', '--option', 'A', '--option', 'B']
  const samples = { nodeE0: [] as number[], version: [] as number[], ask: [] as number[] }
  const failures: string[] = []
  const warm = 2
  for (let i = 0; i < opts.runs + warm; i++) {
    const a = await timeRun(['-e', '0'], env, opts.root)
    const v = await timeRun([bin, '--version'], env, opts.root)
    const b = await timeRun(askArgs, env, opts.root)
    if (b.code !== 0 || !b.out.includes('"selected":["A"]')) {
      if (failures.length < 3) failures.push(`exit ${b.code}: ${(b.err || b.out).trim().slice(0, 300)}`)
    }
    if (i < warm) continue
    samples.nodeE0.push(a.ms)
    samples.version.push(v.ms)
    samples.ask.push(b.ms)
  }
  // With --cpu-prof=DIR, one more `ask-user ask` run is profiled (not counted).
  if (opts.profileDir) await timeRun(['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`, ...askArgs], env, opts.root)
  await closeSocket(window)
  rmSync(home, { recursive: true, force: true })
  return {
    runs: opts.runs,
    nodeE0: summarize(samples.nodeE0),
    version: summarize(samples.version),
    ask: summarize(samples.ask),
    ratio: round(median(samples.ask) / median(samples.nodeE0), 3),
    failures,
  }
}
