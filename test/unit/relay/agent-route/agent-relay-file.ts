// Test fixture: the file `ask-user relay add-agent` writes, made for a member of a test relay world, and
// the process-wide test options of the relay route (short pauses).
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AgentRelayFileSchema, type AgentRelayFile } from '../../../../agent/relay-file'
import { RELAY_TEST_OPTIONS, type RelayTestOptions } from '../../../../agent/relay-route'
import type { RelayWorld } from '../exchange/relay-world'

/** The relay file content of `agent` in `world`, pointing at `url` (default: the server itself). */
export function agentRelayFile(world: RelayWorld, agent: string, url = world.url): AgentRelayFile {
  const member = world.members.get(agent)
  if (!member) throw new Error(`no member ${agent}`)
  return AgentRelayFileSchema.parse({
    v: 1,
    url,
    creds: member.creds,
    // The world mints 600 s credentials; the reader checks only that this lies ahead.
    credsExpiresAt: Math.floor(Date.now() / 1000) + 600,
    agent: member.secret,
    rootPublicKey: world.rootPublicKey,
  })
}

/** Writes `content` as `dir/name` with `mode` (0600 as add-agent does, unless told) and returns the path. */
export async function writeAgentRelayFile(
  dir: string,
  name: string,
  content: AgentRelayFile,
  mode = 0o600,
): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, JSON.stringify(content), { mode })
  await chmod(path, mode)
  return path
}

/** What a test or a preload sets in a process so the route retries fast after a cut. */
export const TEST_RELAY_OPTIONS: RelayTestOptions = { reconnectWaitMs: 100 }

/** Sets the relay route's test options in this process (undone by {@link clearRelayTestOptions}). */
export function setRelayTestOptions(options: RelayTestOptions = TEST_RELAY_OPTIONS): void {
  ;(globalThis as Record<symbol, unknown>)[RELAY_TEST_OPTIONS] = options
}

export function clearRelayTestOptions(): void {
  delete (globalThis as Record<symbol, unknown>)[RELAY_TEST_OPTIONS]
}
