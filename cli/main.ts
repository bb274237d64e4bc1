// `ask-user`: a table of subcommands. Each lives in cli/commands/<name>.ts and exports `run`.
import type { CliIo, Command } from './io'
import { EXIT, printError } from './io'
import { version } from '../package.json'
import { HARNESS_IDS, HOOK_HARNESS_IDS } from '../integrations/ids'
import { runWithProcess, type ProcessHost } from './process-host'
import { closestName } from './closest-name'

interface Entry {
  summary: string
  load: () => Promise<Command>
}

const COMMANDS: Record<string, Entry> = {
  schema: {
    summary: 'print the ask_user_question tool definition {name, title, description, inputSchema, annotations} as JSON',
    load: async () => (await import('./commands/schema')).run,
  },
  ask: {
    summary: 'ask the person through the running companion; prints the answer JSON (exit 0/2/3/4/124/130)',
    load: async () => (await import('./commands/ask')).run,
  },
  mcp: {
    summary: 'run an MCP server on stdio offering the ask_user_question tool',
    load: async () => (await import('./commands/mcp')).run,
  },
  setup: {
    summary: `add ask-user to an MCP client (${HARNESS_IDS.join(', ')}); --hooks, --askpass, --print, --remove`,
    load: async () => (await import('./commands/setup')).run,
  },
  hook: {
    summary: `the command a harness hook runs: one event on stdin, the harness's answer JSON out (${HOOK_HARNESS_IDS.join(', ')})`,
    load: async () => (await import('./commands/hook')).run,
  },
  status: {
    summary: 'is a companion reachable (exit 0) or not (exit 4); its endpoint and pending asks',
    load: async () => (await import('./commands/status')).run,
  },
  serve: {
    summary: 'run the companion without Electron and serve the question window to a browser',
    load: async () => (await import('./commands/serve')).run,
  },
  open: {
    summary: 'open a signed-in question window of the running companion in the browser (a one-time link)',
    load: async () => (await import('./commands/open')).run,
  },
  'agent-token': {
    summary: 'write the agent token to a pipe, for an agent on another machine (ssh -R; see docs/integrations.md)',
    load: async () => (await import('./commands/agent-token')).run,
  },
  relay: {
    summary:
      'set up a self-hosted relay (init), give agents their relay file (add-agent), pair devices (pair, join), manage the roster (devices, remove) and mirror local asks (mirror)',
    load: async () => (await import('./commands/relay')).run,
  },
  'window-token': {
    summary: 'write the window credential to a new 0600 file, for a script window (--out FILE)',
    load: async () => (await import('./commands/window-token')).run,
  },
}

/**
 * Commands not listed in the usage: `ask-user-askpass` (bin/ask-user-askpass.js and the packaged
 * launcher) runs `ask-user __askpass PROMPT`, since sudo gives its askpass program no options.
 */
const HIDDEN: Record<string, Entry> = {
  __askpass: {
    summary: 'the askpass program of sudo, ssh and git (run as ask-user-askpass PROMPT)',
    load: async () => (await import('./commands/askpass-helper')).run,
  },
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length))
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`)
  return `Usage: ask-user <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`ask-user <command> --help\` for a command's options.\n`
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage())
    return name === undefined ? EXIT.INVALID_INPUT : EXIT.OK
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version}\n`)
    return EXIT.OK
  }
  const entry = COMMANDS[name] ?? HIDDEN[name]
  if (!entry) {
    const guess = closestName(name, Object.keys(COMMANDS))
    printError(
      io,
      guess !== undefined
        ? `unknown command "${name}"; did you mean ${guess}?`
        : `unknown command "${name}"; run \`ask-user --help\` for the list`,
    )
    return EXIT.INVALID_INPUT
  }
  return (await entry.load())(rest, io)
}

export type { ProcessHost } from './process-host'

/** Entry point of the `ask-user` bin: wires the real process streams and signals, sets the exit code. */
export function runFromProcess(host: ProcessHost = {}): void {
  runWithProcess(main, host)
}

// Run directly (`node out/main/cli.js …`, as the packaged app's launcher does), the bundle is the command.
if (typeof require !== 'undefined' && require.main === module) runFromProcess()
