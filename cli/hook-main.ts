// Bundle entry `hook` (out/main/hook.js): `ask-user hook …`, which runs on every permission prompt,
// without the table of commands; bin/ask-user.js requires it directly. See docs/performance.md.
import { run } from './commands/hook'
import { runWithProcess, type ProcessHost } from './process-host'

/** Runs `ask-user hook`; `host.argv` is the whole command line after the script (`['hook', ...]`). */
export function runFromProcess(host: ProcessHost = {}): void {
  runWithProcess((argv, io) => run(argv.slice(1), io), host)
}
