import type { ConnectInfo } from '../shared/connect'
import type { HookWork } from './hook-work'
import type { SetupPlan, SetupStep } from './setup-steps'

/** Where a hook event came from: stdin, or the last argument (Codex's notify). */
export type EventSource = 'stdin' | 'argument'

/**
 * A harness's CLI as published on npm: its package, the one version ask-user is tested against
 * (every test that installs the harness reads it from here), and the command the package installs.
 */
export interface PublishedClient {
  pkg: string
  version: string
  bin: string
}

/** What `ask-user hook <harness>` and `ask-user setup <harness> --hooks` know of a harness's hooks. */
export interface HookSupport {
  /** The entries `--hooks` adds: `hook` groups in its settings, or a whole file (opencode's plugin). `command` is the `ask-user hook <id>` line (hook-command.ts). */
  steps: (command: string) => SetupStep[]
  /** What `setup --hooks` tells the person afterwards (e.g. that the harness must trust the hook). */
  notes: readonly string[]
  /**
   * One hook event (parsed JSON) → the companion's work and the harness's answer. Throws
   * HookInputError for an event of the wrong shape.
   */
  map: (event: unknown, from: EventSource) => HookWork
}

/**
 * Everything ask-user knows about one harness: the one record per `integrations/<id>.ts`, which
 * `ask-user setup`, `ask-user hook`, the Connect panel and the help text all read.
 */
export interface Harness {
  id: string
  /** The product's own name, one spelling everywhere (it is not translated). */
  name: string
  /** The renderer's i18n key of its note in "Connect an agent" (renderer/src/i18n/messages.ts). */
  connectNote: `note${string}`
  /** Its published CLI and the version tested; absent for a harness not on npm (Cursor). */
  published?: PublishedClient
  /** `ask-user setup <id>`: the MCP server entry and the allow-list or trust entry, for this install. */
  mcp: (info: ConnectInfo) => SetupPlan
  /** Its hooks, where ask-user answers them. */
  hooks?: HookSupport
  /**
   * `ask-user setup <id> --askpass`: the askpass variables in the harness's setting for the
   * environment of its agent's commands, where it has one.
   */
  askpass?: (variables: Record<string, string>) => SetupPlan
}
