// "Connect an agent" and `ask-user setup --print`: each set-up step as a block a person can copy.
import type { ConnectInfo } from '../shared/connect'
import { isRecord } from '../shared/is-record'
import { askUserLine, quote, withCompanionEnv } from './command-line'
import type { Harness } from './harness'
import { ASKPASS_HARNESSES } from './index'
import { hookGroup, type SetupStep } from './setup-steps'

/** One copyable block: a command to run, a snippet to merge into a config file, or a whole file (`file`). */
export interface ConnectBlock {
  kind: 'command' | 'json' | 'toml' | 'file'
  /** The file a snippet goes into (with `~` for the home folder); absent for a command. */
  file?: string
  text: string
}

/**
 * The exact set-up blocks for one harness on this machine: first the one line `ask-user setup <id>`
 * (this install's absolute command, with the companion's environment), then what that line does,
 * step for step, from the record's `mcp` plan: the client's own command or the snippet merged into
 * its file, with paths, environment and timeouts filled in.
 */
export function connectBlocks(harness: Harness, info: ConnectInfo): ConnectBlock[] {
  const setup: ConnectBlock = {
    kind: 'command',
    text: withCompanionEnv(askUserLine(info, ['setup', harness.id]), info),
  }
  return [setup, ...planBlocks(harness.mcp(info).steps, info)]
}

/**
 * The `ask-user setup <id> --hooks` line of a harness whose hooks ask-user answers (its registry record
 * has `hooks`), so that its permission prompts come to the inbox too; undefined for the others.
 */
export function hooksBlock(harness: Harness, info: ConnectInfo): ConnectBlock | undefined {
  if (harness.hooks === undefined) return undefined
  return { kind: 'command', text: withCompanionEnv(askUserLine(info, ['setup', harness.id, '--hooks']), info) }
}

/** The panel's catch-all entry, any program or shell script: an `ask-user ask` line. */
export function shellBlocks(info: ConnectInfo): ConnectBlock[] {
  return [
    {
      kind: 'command',
      text: withCompanionEnv(`${askUserLine(info, [])} ask --question "Deploy now?" --option Yes --option No`, info),
    },
  ]
}

/**
 * The "Passwords (sudo, ssh, git)" entry of "Connect an agent": one `ask-user setup … --askpass`
 * line per harness with an environment setting, and the shell block's line. None on Windows.
 */
export function askpassBlocks(info: ConnectInfo): ConnectBlock[] {
  if (info.platform === 'win32') return []
  const targets = [...ASKPASS_HARNESSES.map((harness) => harness.id), 'shell']
  return targets.map((target) => ({
    kind: 'command' as const,
    text: withCompanionEnv(askUserLine(info, ['setup', target, '--askpass']), info),
  }))
}

/** One set-up step as the person would carry it out by hand: the command, the snippet for its file, or the whole file. */
export function stepBlock(step: SetupStep, info: ConnectInfo): ConnectBlock {
  switch (step.kind) {
    case 'run':
      return { kind: 'command', text: step.argv.map((word) => quote(word, info.platform)).join(' ') }
    case 'json':
      return { kind: 'json', file: step.file, text: json(nest(step.path, step.value)) }
    case 'json-item':
      return { kind: 'json', file: step.file, text: json(nest(step.path, [step.item])) }
    case 'toml':
      return {
        kind: 'toml',
        file: step.file,
        text: [`[${step.table}]`, ...Object.entries(step.keys).map(([key, value]) => `${key} = ${value}`)].join('\n'),
      }
    case 'hook':
      return { kind: 'json', file: step.file, text: json({ hooks: { [step.event]: [hookGroup(step)] } }) }
    case 'file':
      return { kind: 'file', file: step.file, text: step.text }
  }
}

/**
 * The steps as blocks a person applies by hand, one block per file: the JSON entries of one file merged
 * into one object (objects merged key by key, arrays joined), the TOML tables of one file in one block,
 * each where its file first comes; commands and whole files as they are.
 */
export function planBlocks(steps: readonly SetupStep[], info: ConnectInfo): ConnectBlock[] {
  const blocks: ConnectBlock[] = []
  const values = new Map<ConnectBlock, unknown>()
  for (const step of steps) {
    const block = stepBlock(step, info)
    const same = blocks.find((seen) => seen.file === block.file && seen.kind === block.kind && block.kind !== 'file')
    if (same === undefined || block.file === undefined) {
      blocks.push(block)
      if (block.kind === 'json') values.set(block, JSON.parse(block.text))
    } else if (block.kind === 'json') {
      const value = merged(values.get(same), JSON.parse(block.text))
      values.set(same, value)
      same.text = json(value)
    } else {
      same.text = `${same.text}\n\n${block.text}`
    }
  }
  return blocks
}

/** `b` merged into `a`: objects key by key, arrays joined, anything else `b`. Pure. */
function merged(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...(b as unknown[])]
  if (isRecord(a) && isRecord(b)) {
    const out: Record<string, unknown> = { ...a }
    for (const [key, value] of Object.entries(b)) out[key] = key in out ? merged(out[key], value) : value
    return out
  }
  return b
}

/** `["a", "b"], v` → `{a: {b: v}}`. */
function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value)
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2)
}
