// "Mirror local asks" (docs/relay.md): the desktop writes each new non-secret question of a local agent
// to the relay, sealed to every device of the roster, as itself, so the person's other desks can answer
// it. The first answer on the relay settles the local ask: a window here claims the answer key first
// (mirror-claim.ts), like any desk; another desk's signed answer read from the relay reaches the local
// agent exactly (through the registry's window path with its answer-rule checks, and the windows see
// "answered on <desk>"). A local approval (a harness's permission prompt) is mirrored the same way and
// decided allow once or deny on another desk; "always allow" is decided only here (see mirrorable()).
// The agent leaving withdraws it.
import { randomBytes } from 'node:crypto'
import type { ApprovalAsk, Ask, QuestionAsk } from '../../shared/ask'
import { errorMessage } from '../../shared/describe-error'
import { hasSecret } from '../../shared/question-extras'
import {
  isRelayExchangeError,
  RemoteAsker,
  type AnswerResult,
  type RelayDesk,
  type RelayLink,
  type RemoteAsk,
  type RemoteAskEvent,
} from '../../relay/exchange'
import { inboxKey } from '../../relay/exchange/inbox-keys'
import type { DeskIdentity } from '../../relay/home/desk-identity'
import { describeRelayError } from '../../relay/home/errors'
import { mirrorLocalAsks } from '../../relay/home/mirror-setting'
import { answeredElsewhere, decidedElsewhere, type Refusal, type Registry, type Settlement } from '../registry'
import {
  claimOwnQuestion,
  claimPatience,
  claimSettlement,
  MIRROR_CLAIM_MS,
  replySettlement,
  type LocalReply,
} from './mirror-claim'
import type { RelayBridgeContext } from './start'

/** What the mirror needs: the registry, how to read the setting, an asker acting as this desktop. */
export interface MirrorContext {
  registry: Registry
  /** Reads "mirror local asks" afresh (relay/home/mirror-setting.ts), so a change applies to the next ask. */
  mirrorOn: () => Promise<boolean>
  /** Asks as this desktop: its member keys, its credential's link, its own key token. */
  asker: RemoteAsker
  /** The longest custom answer or deny reason the registry takes (`textChars`): desks check it before they write. */
  maxCustomChars: number
  /** This desktop's member id: an answer it signed is its own window's claim. */
  self: string
  /** Answers or decides this desktop's own relay question `askId` as its desk (mirror-claim.ts claimOwnQuestion). */
  claim: (relayAskId: string, reply: LocalReply, signal: AbortSignal) => Promise<AnswerResult>
  /** How long a claim waits for a relay whose link is down (default {@link MIRROR_CLAIM_MS}). */
  claimMs?: number
  /** True while the relay link is up: a claim waits for a connected relay, however slow. */
  linkUp: () => boolean
  warn: (message: string) => void
}

/** One local ask mirrored now. */
interface Mirrored {
  /** Withdraws its relay question. */
  readonly withdrawal: AbortController
  /** The relay ask id of the round being asked, once the asker writes it. */
  relayAskId?: string
  /** The member whose answer the asker took (a verified answer: that member won). */
  winner?: { readonly id: string; readonly name: string }
  /** This desk's own claim won: the asker is left to tell the desks so with its `delivered` receipt. */
  claimed?: boolean
}

/**
 * Whether a local ask may go to the relay: a question ask of a local agent (not one that came through
 * the relay), with no secret question and not from the askpass helper; or an approval, with the request
 * exactly as the windows get it (an ApprovalRequest holds no secret field: askpass and passwords are
 * question asks). Another desk decides an approval allow once or deny only: "always allow" changes this
 * machine's permission rules, so only a window here offers it (relay/exchange refuses it over the relay).
 */
export function mirrorable(ask: Ask): ask is QuestionAsk | ApprovalAsk {
  if (ask.kind === 'approval') return true
  return ask.origin === undefined && ask.askpass === undefined && !hasSecret(ask)
}

/** The mirror of one companion; {@link close} stops it and withdraws what it still has on the relay. */
export class LocalAskMirror {
  readonly #ctx: MirrorContext
  /** The registry's askId → its relay question, for the asks mirrored now. */
  readonly #mirrored = new Map<string, Mirrored>()
  /** The askers of won claims left to write their `delivered` receipt (withdrawn at close). */
  readonly #finishing = new Set<AbortController>()
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
    for (const mirrored of this.#mirrored.values()) mirrored.withdrawal.abort()
    for (const withdrawal of this.#finishing) withdrawal.abort()
    this.#mirrored.clear()
  }

  async #mirror(ask: Ask): Promise<void> {
    if (!mirrorable(ask)) return
    // Registered before the setting is read, so an ask settled meanwhile is never written afterwards.
    const withdrawal = new AbortController()
    const mirrored: Mirrored = { withdrawal }
    this.#mirrored.set(ask.askId, mirrored)
    const on = await this.#ctx.mirrorOn().catch((error: unknown) => {
      this.#ctx.warn(`local asks are not mirrored: ${describeRelayError(error)}`)
      return false
    })
    if (!on || withdrawal.signal.aborted) {
      this.#mirrored.delete(ask.askId)
      return
    }
    // Known before the question is written, so the desk never takes it for a stale one (isStale).
    const relayAskId = randomBytes(16).toString('base64url')
    this.#issued.add(relayAskId)
    mirrored.relayAskId = relayAskId
    // From the moment the question may be on the relay, a window here answers by claiming it there.
    this.#route(ask, mirrored)
    const options = {
      askId: relayAskId,
      signal: withdrawal.signal,
      ...(ask.title === undefined ? {} : { title: ask.title }),
      mirroredFor: ask.agent.name,
      maxCustomChars: this.#ctx.maxCustomChars,
      onEvent: (event: RemoteAskEvent) => {
        if (event.type === 'asked') mirrored.relayAskId = event.askId
        if (event.type === 'answered') mirrored.winner = event.device
        if (event.type === 'answer-refused' && event.code === 'ALWAYS_NOT_REMOTE')
          this.#ctx.warn(`a relay answer to "${ask.agent.name}"'s approval was refused: ${event.message}`)
      },
    }
    try {
      const reply: LocalReply =
        ask.kind === 'question'
          ? { answers: (await this.#ctx.asker.ask(ask.questions, options)).answers }
          : { decision: await this.#ctx.asker.askApproval(ask.approval, options) }
      this.#mirrored.delete(ask.askId)
      // This desk's own answer: the window's claim that wrote it settles the ask, never this a second time.
      if (mirrored.winner?.id === this.#ctx.self) return
      const answeredOn = mirrored.winner?.name ?? 'another desk'
      // Through the window path, with its checks (answer rules, the decision against the request).
      const outcome = await ('answers' in reply
        ? this.#ctx.registry.answer(ask.askId, reply.answers, answeredOn)
        : this.#ctx.registry.decide(ask.askId, reply.decision, answeredOn))
      // Settled here in the meantime (the agent leaving, a claim that got no reply): that settlement stands.
      if (!outcome.ok && outcome.code !== 'NOT_PENDING')
        this.#ctx.warn(`an answer from ${answeredOn} was refused here: ${outcome.message}`)
    } catch (error) {
      this.#mirrored.delete(ask.askId)
      if (isRelayExchangeError(error, 'ASK_WITHDRAWN')) return
      // The local ask stays pending and answerable here, with no relay in the way; only its copy there is gone.
      this.#route(ask, undefined)
      this.#ctx.warn(`a local ask could not be mirrored to the relay: ${errorMessage(error)}`)
    }
  }

  /** Routes the windows' replies to `ask` through the relay claim of `mirrored`, or no longer when undefined. */
  #route(ask: QuestionAsk | ApprovalAsk, mirrored: Mirrored | undefined): void {
    if (ask.kind === 'question')
      this.#ctx.registry.submitThrough(ask.askId, mirrored && ((answers) => this.#claim(mirrored, { answers })))
    else this.#ctx.registry.decideThrough(ask.askId, mirrored && ((decision) => this.#claim(mirrored, { decision })))
  }

  /**
   * A window's reply to a mirrored ask: claimed on the relay first (first answer wins everywhere). With
   * the relay link down for the claim's bound (or no reply at all within its ceiling) it settles here, and onResolved withdraws the relay
   * question: a desk that answered meanwhile is told "withdrawn" (docs/relay.md).
   */
  async #claim(mirrored: Mirrored, reply: LocalReply): Promise<Settlement | Refusal> {
    const here = replySettlement(reply)
    const taken = (): Refusal | undefined =>
      mirrored.winner !== undefined && mirrored.winner.id !== this.#ctx.self
        ? ('answers' in reply ? answeredElsewhere : decidedElsewhere)(mirrored.winner.name)
        : undefined
    // The asker already took another desk's answer: it reaches the agent as soon as the asker returns.
    const before = taken()
    if (before || mirrored.relayAskId === undefined || mirrored.withdrawal.signal.aborted) return before ?? here
    const patience = claimPatience(this.#ctx.linkUp, this.#ctx.claimMs ?? MIRROR_CLAIM_MS)
    try {
      const result = await this.#ctx.claim(mirrored.relayAskId, reply, patience.signal)
      const settlement = claimSettlement(result, reply, this.#ctx.self)
      if ('outcome' in settlement) mirrored.claimed = true
      return settlement
    } catch (error) {
      // A receipt ended the question while the claim waited: another desk's answer, if the asker took one.
      const after = taken()
      if (after) return after
      this.#ctx.warn(
        `an answer given here settled a mirrored ask without the relay (${describeRelayError(error)}); its relay question is withdrawn`,
      )
      return here
    } finally {
      patience.stop()
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
    const mirrored = this.#mirrored.get(askId)
    if (!mirrored) return
    this.#mirrored.delete(askId)
    // A claim won: the asker is reading that very answer and writes the `delivered` receipt the other
    // desks show as "answered on <this desk>". Withdrawn only if it cannot finish within a claim's bound.
    if (mirrored.claimed) {
      const { withdrawal } = mirrored
      this.#finishing.add(withdrawal)
      setTimeout(() => {
        this.#finishing.delete(withdrawal)
        withdrawal.abort()
      }, this.#ctx.claimMs ?? MIRROR_CLAIM_MS).unref()
      return
    }
    mirrored.withdrawal.abort()
  }
}

/**
 * The mirror of the first desktop's companion: asks go out as the desktop (`identity.device`) under its
 * credential's name, on the bridge's `link`; the setting is read from `ctx.home` at every new local ask.
 */
export function startLocalAskMirror(
  ctx: RelayBridgeContext,
  link: RelayLink,
  desk: RelayDesk,
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
    maxCustomChars: ctx.limits.textChars,
    self: identity.device.member.id,
    claim: (relayAskId, reply, signal) =>
      claimOwnQuestion(desk, inboxKey('q', identity.natsName, relayAskId), reply, signal),
    linkUp: () => link.up,
    warn: ctx.warn,
  })
}
