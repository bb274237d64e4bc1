// Bundle entry `mcp` (out/main/mcp.js): `ask-user mcp …`, which a harness spawns at every session
// start, without the table of commands; bin/ask-user.js requires it directly. See docs/performance.md.
import { run } from './commands/mcp'
import { runWithProcess, type ProcessHost } from './process-host'

/** Runs `ask-user mcp`; `host.argv` is the whole command line after the script (`['mcp', ...]`). */
export function runFromProcess(host: ProcessHost = {}): void {
  runWithProcess((argv, io) => run(argv.slice(1), io), host)
}
