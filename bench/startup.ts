// 5. Start-up of the commands a harness spawns, beside `node -e 0` (the cost of starting Node at all),
// alternating so background load hits all alike:
// - `ask-user mcp`: spawn → the `tools/list` result, after `initialize` and `notifications/initialized`
//   (the MCP server's first useful reply; no companion is needed for it). Also through the packaged
//   app's launcher (resources/bin/ask-user, packaged-cli.ts), which is what installers put on PATH.
// - `ask-user hook claude-code` with a Claude Code `PermissionRequest` payload for a `Bash` command:
//   with no companion running (spawn → exit; it prints nothing), and answered by a scripted window that
//   allows at once (spawn → exit; the harness's JSON on stdout is checked).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { median, round, summarize, type Summary } from './stats'
import { closeSocket, openWindow, parse, type ServerChild } from './util'
import { stagePackagedCli } from './packaged-cli'

export interface StartupResult {
  runs: number
  nodeE0: Summary
  mcp: Summary
  /** `ask-user mcp` through the packaged launcher (not measured on Windows). */
  mcpPackaged?: Summary
  hookNoCompanion: Summary
  hookAnswered: Summary
  ratios: { mcp: number; mcpPackaged?: number; hookNoCompanion: number; hookAnswered: number }
  failures: string[]
}

/** A Claude Code `PermissionRequest` hook event for a `Bash` command. */
export const BASH_PERMISSION_REQUEST = {
  session_id: '3f2a9c1e-77aa-4b1e-9d0f-2c5e8a1b6d42',
  transcript_path: '/tmp/bench/3f2a9c1e.jsonl',
  cwd: '/tmp/bench-project',
  permission_mode: 'default',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the tests' },
}

interface Run {
  ms: number
  code: number | null
  out: string
  err: string
}

/**
 * Spawns `node args` (or `command args`), writes `input` to its stdin (closing it unless `done` is given), and times
 * spawn → `done(stdout)` (then the child is terminated) or spawn → exit. Resolves once the child has
 * exited either way, so that no dying child overlaps the next measurement.
 */
function timeSpawn(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  input?: string,
  done?: (out: string) => boolean,
  command: string = process.execPath,
): Promise<Run> {
  return new Promise((resolve) => {
    const t0 = performance.now()
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let reached: number | undefined
    child.stdout.on('data', (d) => {
      out += d
      if (reached === undefined && done?.(out)) {
        reached = performance.now() - t0
        child.kill()
      }
    })
    child.stderr.on('data', (d) => (err += d))
    child.stdin.on('error', () => undefined)
    if (input !== undefined && !done) child.stdin.end(input)
    else if (input !== undefined) child.stdin.write(input)
    else child.stdin.end()
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.on('close', (code) => {
      clearTimeout(kill)
      resolve(
        reached !== undefined ? { ms: reached, code: 0, out, err } : { ms: performance.now() - t0, code, out, err },
      )
    })
  })
}

const MCP_HANDSHAKE =
  [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((m) => JSON.stringify(m))
    .join('\n') + '\n'

export async function runStartup(
  server: ServerChild,
  opts: { runs: number; root: string; profileDir?: string },
): Promise<StartupResult> {
  const { ws: window } = await openWindow(server.info.uiUrl, server.info.windowToken)
  window.on('message', (data) => {
    const f = parse(data)
    if (f.type === 'ask/added' && f.ask.kind === 'approval') {
      window.send(JSON.stringify({ type: 'ask/decide', askId: f.ask.askId, decision: { behavior: 'allow' } }))
    }
  })
  const home = mkdtempSync(join(tmpdir(), 'ask-user-bench-startup-'))
  const lonely = mkdtempSync(join(tmpdir(), 'ask-user-bench-nocompanion-'))
  const base = { ...process.env }
  delete base.ASK_USER_URL
  delete base.ASK_USER_TOKEN
  const answeredEnv = {
    ...base,
    ASK_USER_HOME: home,
    ASK_USER_URL: server.info.agentUrl,
    ASK_USER_TOKEN: server.info.token,
  }
  const lonelyEnv = { ...base, ASK_USER_HOME: lonely, HOME: lonely }
  const bin = join(opts.root, 'bin', 'ask-user.js')
  const event = JSON.stringify(BASH_PERMISSION_REQUEST)
  const toolsListed = (out: string): boolean => out.includes('"id":2') && out.includes('ask_user_question')
  const packaged = stagePackagedCli(opts.root)
  const samples = {
    nodeE0: [] as number[],
    mcp: [] as number[],
    mcpPackaged: [] as number[],
    hookNoCompanion: [] as number[],
    hookAnswered: [] as number[],
  }
  const failures: string[] = []
  const fail = (what: string, r: Run): void => {
    if (failures.length < 6) failures.push(`${what}: exit ${r.code}: ${(r.err || r.out).trim().slice(0, 300)}`)
  }
  const warm = 2
  for (let i = 0; i < opts.runs + warm; i++) {
    const a = await timeSpawn(['-e', '0'], base, opts.root)
    const m = await timeSpawn([bin, 'mcp'], answeredEnv, opts.root, MCP_HANDSHAKE, toolsListed)
    if (!toolsListed(m.out)) fail('ask-user mcp', m)
    const p = packaged
      ? await timeSpawn(['mcp'], answeredEnv, opts.root, MCP_HANDSHAKE, toolsListed, packaged.launcher)
      : undefined
    if (p && !toolsListed(p.out)) fail('ask-user mcp (packaged launcher)', p)
    const n = await timeSpawn([bin, 'hook', 'claude-code'], lonelyEnv, opts.root, event)
    if (n.code !== 0 || n.out.trim() !== '') fail('ask-user hook (no companion)', n)
    const h = await timeSpawn([bin, 'hook', 'claude-code'], answeredEnv, opts.root, event)
    if (h.code !== 0 || !h.out.includes('"behavior":"allow"')) fail('ask-user hook (answered)', h)
    if (i < warm) continue
    samples.nodeE0.push(a.ms)
    samples.mcp.push(m.ms)
    if (p) samples.mcpPackaged.push(p.ms)
    samples.hookNoCompanion.push(n.ms)
    samples.hookAnswered.push(h.ms)
  }
  if (opts.profileDir) {
    const prof = ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`, bin]
    await timeSpawn([...prof, 'mcp'], answeredEnv, opts.root, MCP_HANDSHAKE)
    await timeSpawn([...prof, 'hook', 'claude-code'], lonelyEnv, opts.root, event)
    await timeSpawn([...prof, 'hook', 'claude-code'], answeredEnv, opts.root, event)
  }
  await closeSocket(window)
  packaged?.remove()
  rmSync(home, { recursive: true, force: true })
  rmSync(lonely, { recursive: true, force: true })
  const floor = median(samples.nodeE0)
  return {
    runs: opts.runs,
    nodeE0: summarize(samples.nodeE0),
    mcp: summarize(samples.mcp),
    ...(packaged ? { mcpPackaged: summarize(samples.mcpPackaged) } : {}),
    hookNoCompanion: summarize(samples.hookNoCompanion),
    hookAnswered: summarize(samples.hookAnswered),
    ratios: {
      mcp: round(median(samples.mcp) / floor, 3),
      ...(packaged ? { mcpPackaged: round(median(samples.mcpPackaged) / floor, 3) } : {}),
      hookNoCompanion: round(median(samples.hookNoCompanion) / floor, 3),
      hookAnswered: round(median(samples.hookAnswered) / floor, 3),
    },
    failures,
  }
}
