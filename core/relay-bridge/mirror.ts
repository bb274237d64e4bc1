// "Mirror local asks" (docs/relay.md): the desktop writes each new non-secret question of a local agent
// to the relay, sealed to every device of the roster, as itself, so the person's other desks can answer
// it. The first answer settles the local ask: a window here (the relay question is then withdrawn), or
// another desk's signed answer read from the relay (the local agent gets exactly that answer, through
// the registry's window path with its answer-rule checks, and the windows see "answered on <desk>").
// The agent leaving withdraws it too. Approvals are not mirrored: see mirrorable().
import { randomBytes } from 'node:crypto'
import type { Ask, QuestionAsk } from '../../shared/ask'
import { errorMessage } from '../../shared/describe-error'
import { hasSecret } from '../../shared/question-extras'
import { isRelayExchangeError, RemoteAsker, type RelayLink, type RemoteAsk } from '../../relay/exchange'
import type { DeskIdentity } from '../../relay/home/desk-identity'
import { describeRelayError } from '../../relay/home/errors'
import { mirrorLocalAsks } from '../../relay/home/mirror-setting'
import type { Registry } from '../registry'
import type { RelayBridgeContext } from './start'

/** What the mirror needs: the registry, how to read the setting, an asker acting as this desktop. */
export interface MirrorContext {
  registry: Registry
  /** Reads "mirror local asks" afresh (relay/home/mirror-setting.ts), so a change applies to the next ask. */
  mirrorOn: () => Promise<boolean>
  /** Asks as this desktop: its member keys, its credential's link, its own key token. */
  asker: RemoteAsker
  warn: (message: string) => void
}

/**
 * Whether a local ask may go to the relay: a question ask of a local agent (not one that came through
 * the relay), with no secret question and not from the askpass helper. Approvals stay here: deciding
 * one may add an "always" rule to this machine's permissions and reads this machine's tool input, which
 * another desk can neither apply nor show as the harness would.
 */
export function mirrorable(ask: Ask): ask is QuestionAsk {
  return ask.kind === 'question' && ask.origin === undefined && ask.askpass === undefined && !hasSecret(ask)
}

/** The mirror of one companion; {@link close} stops it and withdraws what it still has on the relay. */
export class LocalAskMirror {
  readonly #ctx: MirrorContext
  /** The registry's askId → the withdrawal of its relay question, for the asks mirrored now. */
  readonly #mirrored = new Map<string, AbortController>()
  /** The relay ask ids this mirror has issued since it started (the first round of each mirrored ask). */
  readonly #issued = new Set<string>()
  readonly #unsubscribe: Array<() => void>

  /**
   * Starts following the registry: the asks pending now (they came while the relay was out of reach)
   * and every ask added from now on are considered.
   */
  constructor(ctx: MirrorContext) {
    this.#ctx = ctx
    this.#unsubscribe = [
      ctx.registry.onAdded((ask) => void this.#mirror(ask)),
      ctx.registry.onResolved((ask) => this.#withdraw(ask.askId)),
    ]
    for (const ask of ctx.registry.pending()) void this.#mirror(ask)
  }

  /** Stops mirroring; the relay questions of asks still pending are withdrawn (best effort). */
  close(): void {
    for (const stop of this.#unsubscribe) stop()
    for (const askId of [...this.#mirrored.keys()]) this.#withdraw(askId)
  }

  async #mirror(ask: Ask): Promise<void> {
    if (!mirrorable(ask)) return
    // Registered before the setting is read, so an ask settled meanwhile is never written afterwards.
    const withdrawal = new AbortController()
    this.#mirrored.set(ask.askId, withdrawal)
    const on = await this.#ctx.mirrorOn().catch((error: unknown) => {
      this.#ctx.warn(`local asks are not mirrored: ${describeRelayError(error)}`)
      return false
    })
    if (!on || withdrawal.signal.aborted) {
      this.#mirrored.delete(ask.askId)
      return
    }
    let answeredOn: string | undefined
    // Known before the question is written, so the desk never takes it for a stale one (isStale).
    const relayAskId = randomBytes(16).toString('base64url')
    this.#issued.add(relayAskId)
    try {
      const answer = await this.#ctx.asker.ask(ask.questions, {
        askId: relayAskId,
        signal: withdrawal.signal,
        ...(ask.title === undefined ? {} : { title: ask.title }),
        mirroredFor: ask.agent.name,
        onEvent: (event) => {
          if (event.type === 'answered') answeredOn = event.device.name
        },
      })
      this.#mirrored.delete(ask.askId)
      const outcome = await this.#ctx.registry.answer(ask.askId, answer.answers, answeredOn)
      // Settled here in the meantime (a window, the agent leaving): that settlement stands.
      if (!outcome.ok && outcome.code !== 'NOT_PENDING')
        this.#ctx.warn(`an answer from ${answeredOn ?? 'another desk'} was refused here: ${outcome.message}`)
    } catch (error) {
      this.#mirrored.delete(ask.askId)
      if (isRelayExchangeError(error, 'ASK_WITHDRAWN')) return
      // The local ask stays pending and answerable here; only its copy on the relay is gone.
      this.#ctx.warn(`a local ask could not be mirrored to the relay: ${errorMessage(error)}`)
    }
  }

  /**
   * Withdraws `remote`, one of this desktop's own questions on the relay, when no mirrored ask of this
   * run asked it: it was left by an earlier run that ended without a receipt (a crash), and its local
   * agent is gone with that run. Else the desks would keep offering an ask whose answer reaches no one.
   */
  withdrawIfStale(remote: RemoteAsk): void {
    const ours = (id: string | undefined): boolean => id !== undefined && this.#issued.has(id)
    // A re-ask (after an unverifiable answer) carries the id it replaces: it belongs to a live ask.
    if (ours(remote.askId)) return
    if (ours(remote.previousAskId)) {
      this.#issued.add(remote.askId)
      return
    }
    void this.#ctx.asker.withdrawStale(remote.askId)
  }

  #withdraw(askId: string): void {
    const withdrawal = this.#mirrored.get(askId)
    if (!withdrawal) return
    this.#mirrored.delete(askId)
    withdrawal.abort()
  }
}

/**
 * The mirror of the first desktop's companion: asks go out as the desktop (`identity.device`) under its
 * credential's name, on the bridge's `link`; the setting is read from `ctx.home` at every new local ask.
 */
export function startLocalAskMirror(
  ctx: RelayBridgeContext,
  link: RelayLink,
  identity: DeskIdentity,
  highestSeenRosterVersion: number | undefined,
): LocalAskMirror {
  const asker = new RemoteAsker({
    link,
    agent: identity.device,
    rootPublicKey: identity.rootPublicKey,
    keyToken: identity.natsName,
    ...(highestSeenRosterVersion === undefined ? {} : { highestSeenRosterVersion }),
    now: ctx.now,
  })
  return new LocalAskMirror({
    registry: ctx.registry,
    mirrorOn: () => mirrorLocalAsks(ctx.home),
    asker,
    warn: ctx.warn,
  })
}
