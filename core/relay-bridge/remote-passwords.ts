// The bridge's view of `ask-user relay passwords` (relay/home/remote-passwords.ts): which remote agents
// this desk answers secret asks for. The command only writes the file in the home; the bridge watches
// that file and, on every change, makes the remote secret asks already listed answerable or not, so
// the person sees the card change without a restart.
import { watch, type FSWatcher } from 'node:fs'
import { describeRelayError } from '../../relay/home/errors'
import { loadRemotePasswords, REMOTE_PASSWORDS_FILE } from '../../relay/home/remote-passwords'
import type { AskOrigin } from '../../shared/ask'
import { hasSecret } from '../../shared/question-extras'
import type { Registry } from '../registry'
import { remoteOrigin } from './remote-asks'

/** The allowed agents of one home, kept current while the bridge runs. */
export class RemotePasswords {
  readonly #home: string
  readonly #warn: (message: string) => void
  #allowed = new Set<string>()
  /** Per allowed agent, the names of the phones it is also allowed on (their sealed records on the relay). */
  #devices = new Map<string, readonly string[]>()
  /** The agents allowed on every paired device, including those paired later (`--phones`). */
  #everyDevice = new Set<string>()
  #watcher: FSWatcher | undefined
  #reading: Promise<void> = Promise.resolve()

  private constructor(home: string, warn: (message: string) => void) {
    this.#home = home
    this.#warn = warn
  }

  /**
   * Reads the setting and watches the home for changes to it; `onChange` runs after each re-read. A
   * damaged file allows nobody (and says so): a broken setting never opens the way to a password.
   */
  static async start(home: string, onChange: () => void, warn: (message: string) => void): Promise<RemotePasswords> {
    const passwords = new RemotePasswords(home, warn)
    await passwords.#read()
    try {
      passwords.#watcher = watch(home, { persistent: false }, (_event, name) => {
        if (name !== REMOTE_PASSWORDS_FILE) return
        // One read at a time, in order: the last change always wins.
        passwords.#reading = passwords.#reading
          .then(() => passwords.#read())
          .then(onChange)
          .catch((error: unknown) => warn(`applying the remote-passwords setting failed: ${String(error)}`))
      })
      passwords.#watcher.on('error', (error) => warn(`watching the remote-passwords setting failed: ${String(error)}`))
    } catch (error) {
      // No watch (the system's limit of watches, say): the bridge still runs, with the setting read at start.
      warn(`changes to remote passwords apply at the next start: the home cannot be watched (${String(error)})`)
    }
    return passwords
  }

  /** True when the person allowed remote passwords on this desk for the agent with roster id `agentId`. */
  allows(agentId: string): boolean {
    return this.#allowed.has(agentId)
  }

  /**
   * The names of the paired devices (phones) also allowed to answer `agentId`'s passwords: all of `paired`
   * (the roster's devices now) for an agent allowed on every paired device.
   */
  devicesOf(agentId: string, paired: readonly string[] = []): readonly string[] {
    return this.#everyDevice.has(agentId) ? paired : (this.#devices.get(agentId) ?? [])
  }

  /** The roster ids of the agents allowed now. */
  allowedAgentIds(): ReadonlySet<string> {
    return this.#allowed
  }

  close(): void {
    this.#watcher?.close()
  }

  async #read(): Promise<void> {
    try {
      const setting = await loadRemotePasswords(this.#home)
      this.#allowed = new Set(setting.agents.map((agent) => agent.id))
      this.#devices = new Map(setting.agents.map((agent) => [agent.id, (agent.devices ?? []).map((d) => d.name)]))
      this.#everyDevice = new Set(setting.agents.filter((agent) => agent.everyDevice).map((agent) => agent.id))
    } catch (error) {
      this.#allowed = new Set()
      this.#devices = new Map()
      this.#everyDevice = new Set()
      this.#warn(`remote passwords are allowed for no agent: ${describeRelayError(error)}`)
    }
  }
}

/**
 * Makes each of the listed remote secret asks (`askIds`) answerable or not by `passwords`, telling the
 * windows of each one that changed (`Registry.setOrigin`).
 */
export function reviseRemoteSecretAsks(registry: Registry, askIds: Iterable<string>, passwords: RemotePasswords): void {
  const listed = new Set(askIds)
  for (const ask of registry.pending()) {
    if (!listed.has(ask.askId) || ask.kind !== 'question' || ask.origin === undefined || !hasSecret(ask)) continue
    const agent = { name: ask.agent.name, id: ask.origin.agentId }
    const origin = remoteOrigin(agent, true, passwords.allows(agent.id))
    if (origin.unanswerable !== ask.origin.unanswerable)
      registry.setOrigin(ask.askId, withPresenceOf(ask.origin, origin))
  }
}

/** `next`, keeping the presence mark `current` carries (presence-marks.ts owns that field). */
function withPresenceOf(current: AskOrigin, next: AskOrigin): AskOrigin {
  return current.unreachableSince === undefined ? next : { ...next, unreachableSince: current.unreachableSince }
}
