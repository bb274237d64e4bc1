// The attacker's program for the pre-auth tests, as source text: it runs as another Unix user (see
// test/helpers/attacker-user.ts) and keeps `count` idle TCP sockets open to 127.0.0.1:`port`, opening
// a new one whenever the companion drops one, until `stopAfterMs` has passed or its stdin closes. It
// never sends a byte. It prints `{"ready":true}` once `count` sockets have been opened, then a final
// line `{"opened":N,"droppedByPeer":N,"failed":N}` when it stops (without churn: also once every
// socket it opened is gone).

/** Source of the attacker's churn script (plain Node, no imports beyond node:net). */
export const IDLE_CHURN_SOURCE = String.raw`
const net = require('node:net')
const [port, count, stopAfterMs, churn] = process.argv.slice(2).map(Number)
let opened = 0, droppedByPeer = 0, failed = 0, live = 0, stopped = false, readySent = false
const sockets = new Set()
function open() {
  if (stopped) return
  const socket = net.connect({ port, host: '127.0.0.1' })
  sockets.add(socket)
  live++
  let connected = false
  socket.on('connect', () => {
    connected = true
    opened++
    if (!readySent && opened >= count) { readySent = true; process.stdout.write(JSON.stringify({ ready: true }) + '\n') }
  })
  socket.on('error', () => {})
  socket.on('close', () => {
    sockets.delete(socket)
    live--
    if (connected) droppedByPeer++
    else failed++
    if (churn) setImmediate(open)
    else if (droppedByPeer + failed === count) stop()
  })
}
function stop() {
  if (stopped) return
  stopped = true
  process.stdout.write(JSON.stringify({ opened, droppedByPeer, failed }) + '\n', () => {
    for (const socket of sockets) socket.destroy()
    process.exit(0)
  })
}
setTimeout(stop, stopAfterMs)
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
let started = 0
;(function burst() {
  // open in slices so the first sockets are accepted while the rest are still dialled
  for (let i = 0; i < 200 && started < count; i++, started++) open()
  if (started < count) setImmediate(burst)
})()
`
