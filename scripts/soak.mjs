#!/usr/bin/env node
// `npm run soak -- --minutes N [--seed S] [--no-build]`: an opt-in soak, never run in CI. Runs the real
// `ask-user serve` (built into out/main/cli.js) in a temporary home for N minutes while agents connect,
// ask, withdraw and vanish, a window answers, dismisses or ignores, and the companion is restarted at
// random (SIGTERM, then a new start in the same home; agents find it again through endpoint.json).
// Prints asks made, answered, dismissed, withdrawn, aborted by a restart, gone with their agent, lost
// (must be 0) and crossed (must be 0), and the companion's RSS at the start and the end. Exit 1 when
// anything was lost or crossed.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'

const root = join(import.meta.dirname, '..')
const args = process.argv.slice(2)
const flag = (name, fallback) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : Number(args[at + 1])
}
const minutes = flag('--minutes', 1)
const seed = flag('--seed', 14)
if (!(minutes > 0)) {
  console.error('Error: --minutes must be a positive number')
  process.exit(2)
}
if (!args.includes('--no-build')) {
  const build = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (build.status !== 0) {
    console.error('Error: electron-vite build failed')
    process.exit(1)
  }
}

let state = seed >>> 0
/** mulberry32: the same seed gives the same choices. */
function random() {
  state = (state + 0x6d2b79f5) >>> 0
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const tick = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const home = mkdtempSync(join(tmpdir(), 'ask-user-soak-'))
const counts = {
  made: 0,
  answered: 0,
  dismissed: 0,
  withdrawn: 0,
  abortedByRestart: 0,
  gone: 0,
  lost: 0,
  crossed: 0,
  restarts: 0,
  agents: 0,
}
let companion

function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) * 1024 : 0
}

async function startCompanion() {
  const child = spawn(process.execPath, [join(root, 'bin', 'ask-user.js'), 'serve', '--port', '0'], {
    env: { ...process.env, ASK_USER_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  await new Promise((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk
      if (out.includes('#code=')) resolve()
    })
    exited.then(() => reject(new Error('ask-user serve exited before it printed its URL')))
  })
  const endpoint = JSON.parse(readFileSync(join(home, 'endpoint.json'), 'utf8'))
  // A script window: the window credential of window.json (the agent token does not open /v1/ui).
  const { credential } = JSON.parse(readFileSync(join(home, 'window.json'), 'utf8'))
  const window = new WebSocket(endpoint.url.replace('/v1/agent', '/v1/ui'), ['ask-user.ui.v1'], {
    headers: { Authorization: `Bearer ${credential}` },
  })
  window.on('error', () => undefined)
  window.on('message', (data) => {
    const frame = JSON.parse(String(data))
    if (frame.type !== 'question/added') return
    const roll = random()
    const label = frame.ask.questions[0].options[0].label
    if (roll < 0.75)
      window.send(
        JSON.stringify({ type: 'answer', askId: frame.ask.askId, answers: [{ id: 'q1', selected: [label] }] }),
      )
    else if (roll < 0.85) window.send(JSON.stringify({ type: 'dismiss', askId: frame.ask.askId }))
  })
  await new Promise((resolve) => window.once('open', resolve))
  return { child, exited, endpoint, window }
}

async function stopCompanion() {
  const current = companion
  companion = undefined
  current.window.close()
  current.child.kill('SIGTERM')
  await current.exited
}

/** One agent's session: connect, hello, a few asks, then withdraw, vanish or leave cleanly. */
async function agentSession(index) {
  if (!companion) return
  const { endpoint } = companion
  const socket = new WebSocket(endpoint.url, ['ask-user.v1'], {
    headers: { Authorization: `Bearer ${endpoint.token}` },
  })
  socket.on('error', () => undefined)
  const open = new Map() // wire id → label
  const withdrawn = new Set() // withdrawn by this agent; an outcome may still cross the cancel
  let vanished = false
  const closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)))
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data))
    if (frame.type === 'welcome') {
      const asks = 1 + Math.floor(random() * 5)
      for (let k = 0; k < asks; k++) {
        const label = `s${index}-k${k}`
        open.set(`k${k}`, label)
        counts.made++
        socket.send(
          JSON.stringify({
            type: 'ask',
            id: `k${k}`,
            questions: [{ id: 'q1', question: 'Soak?', options: [{ label }] }],
          }),
        )
      }
      return
    }
    if ('id' in frame && withdrawn.has(frame.id) && (frame.type === 'answer' || frame.type === 'cancelled')) {
      // The person's answer crossed the agent's cancel: it counts as answered, not withdrawn.
      withdrawn.delete(frame.id)
      counts.withdrawn--
      if (frame.type === 'answer' && frame.answers[0].selected[0] !== `s${index}-${frame.id}`) counts.crossed++
      if (frame.type === 'answer') counts.answered++
      else counts.dismissed++
      return
    }
    if (!('id' in frame) || !open.has(frame.id)) {
      if (frame.type === 'answer' || frame.type === 'cancelled') counts.crossed++
      return
    }
    if (frame.type === 'answer') {
      if (frame.answers[0].selected[0] !== open.get(frame.id)) counts.crossed++
      counts.answered++
    } else if (frame.type === 'cancelled') counts.dismissed++
    else if (frame.type === 'error' && frame.code === 'ASK_ABORTED') counts.abortedByRestart++
    else return
    open.delete(frame.id)
  })
  const opened = await new Promise((resolve) => {
    socket.once('open', () => resolve(true))
    void closed.then(() => resolve(false))
  })
  if (opened) socket.send(JSON.stringify({ type: 'hello', protocol: 1, client: { name: `soak-${index}` } }))
  await tick(20 + Math.floor(random() * 200))
  const roll = random()
  if (socket.readyState === WebSocket.OPEN) {
    if (roll < 0.1) {
      vanished = true
      socket.terminate()
    } else {
      for (const id of open.keys()) {
        withdrawn.add(id)
        socket.send(JSON.stringify({ type: 'cancel', id }))
      }
      counts.withdrawn += open.size
      open.clear()
      socket.close(1000)
    }
  }
  const code = await closed
  if (vanished) counts.gone += open.size
  else if (code !== 1001 && open.size > 0) {
    counts.lost += open.size // a restart's 1001 comes with ASK_ABORTED for each
    console.error(`soak: agent ${index} closed with ${code} and ${open.size} asks without an outcome`)
  }
  counts.agents++
}

companion = await startCompanion()
const rssStart = rssOf(companion.child.pid)
const until = Date.now() + minutes * 60_000
let index = 0
const running = new Set()
while (Date.now() < until) {
  for (let i = 0; i < 10 && running.size < 200; i++) {
    const session = agentSession(index++).finally(() => running.delete(session))
    running.add(session)
  }
  await tick(25)
  if (random() < 0.002) {
    await Promise.all(running)
    await stopCompanion()
    companion = await startCompanion()
    counts.restarts++
  }
}
await Promise.all(running)
const status = await fetch(companion.endpoint.url.replace('ws:', 'http:').replace('/v1/agent', '/v1/status'), {
  headers: { Authorization: `Bearer ${companion.endpoint.token}` },
}).then((response) => response.json())
if (status.pending > 0) console.error(`soak: ${status.pending} asks still pending at the end`)
counts.lost += status.pending
const rssEnd = rssOf(companion.child.pid)
await stopCompanion()
rmSync(home, { recursive: true, force: true })

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
console.log(`soak: ${minutes} min, seed ${seed}, ${counts.agents} agent sessions, ${counts.restarts} restarts`)
console.log(
  `asks made ${counts.made}, answered ${counts.answered}, dismissed ${counts.dismissed}, withdrawn ${counts.withdrawn}, aborted by a restart ${counts.abortedByRestart}, gone with their agent ${counts.gone}`,
)
console.log(`lost ${counts.lost}, crossed ${counts.crossed}`)
console.log(
  `companion RSS: start ${mb(rssStart)}, end ${mb(rssEnd)} (the last companion, after ${counts.restarts} restarts)`,
)
process.exit(counts.lost === 0 && counts.crossed === 0 ? 0 : 1)
