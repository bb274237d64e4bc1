// The relay as a transport beside the WebSocket endpoint: this machine's desk on the relay (relay/exchange's
// RelayDesk) feeding the companion's one registry. Remote asks enter the same registry and windows as
// local ones, named by the roster and marked remote; a window's answer goes out through the desk and the
// ask settles by what the relay says (first answer wins). Loaded only when a relay is configured
// (start.ts imports this file dynamically), so a companion without one never loads the relay code.
import { errorMessage } from '../../shared/describe-error'
import { refusedOnRelayText } from '../../shared/relay-notices'
import {
  isRelayExchangeError,
  RelayDesk,
  WorkerQuestionOpener,
  type RelayLink,
  type AnswerResult,
  type RemoteAsk,
  type RemoteAskSettled,
} from '../../relay/exchange'
import { CLI_SERVER_CHECKS } from '../../relay/home/desktop-link'
import { loadDeskIdentity } from '../../relay/home/desk-identity'
import { describeRelayError } from '../../relay/home/errors'
import { followPushSubscriptions, type PushKeeper } from '../../relay/home/push-keeper'
import { renewRelayAtStart } from '../../relay/renewal'
import type { Refusal, Settlement } from '../registry'
import { startLocalAskMirror, type LocalAskMirror } from './mirror'
import { followLink, reachRelay } from './relay-reach'
import { followPresence, withCurrentPresence } from './presence-marks'
import { RelayNotices } from './relay-notices'
import { followAgentContact, followStoredRoster } from './relay-state-feed'
import { answerSettlement, relaySettlement, remoteNewAsk, type RemoteReply } from './remote-asks'
import { RemotePasswords, reviseRemoteSecretAsks } from './remote-passwords'
import { keepStandingPasswordRules } from './standing-passwords'
import type { RelayBridgeContext } from './start'

/** How long a window's answer waits for the relay to take it (it keeps retrying through an outage meanwhile). */
export const ANSWER_WAIT_MS = 30_000
/**
 * How often a running companion renews as it does at start (the roster and the paired devices'
 * credentials on the first desktop, a renewed credential on a device) and takes a fresh credential of
 * its own for the link's next reconnect: well inside the 7 days a credential lives.
 */
export const RENEW_EVERY_MS = 12 * 3_600_000

/** The running bridge of one companion. */
export class RelayBridge {
  readonly #ctx: RelayBridgeContext
  readonly #notices: RelayNotices
  readonly #closed = new AbortController()
  /** Relay key (`q.<agent>.<askId>`) → the registry's askId, for the remote asks listed now. */
  readonly #listed = new Map<string, string>()
  /** The relay keys among {@link #listed} that are another desktop's mirrored approvals. */
  readonly #approvals = new Set<string>()
  /**
   * Relay keys this desk's answer is on its way for (its own `submit` settles those), each with whether
   * the agent's receipt for that very answer already came.
   */
  readonly #answering = new Map<string, boolean>()
  #link: RelayLink | undefined
  #desk: RelayDesk | undefined
  #mirror: LocalAskMirror | undefined
  #push: PushKeeper | undefined
  #self = ''
  /** This desk's current credential; the link asks for it at every (re)connect. */
  #creds = ''
  #renewals: NodeJS.Timeout | undefined
  /** Which agents this desk answers secret asks for (`ask-user relay passwords`). */
  #passwords: RemotePasswords | undefined
  /** Opens the desk's questions on a worker thread, off the companion's event loop (issue 32). */
  readonly #opener: WorkerQuestionOpener

  private constructor(ctx: RelayBridgeContext) {
    this.#ctx = ctx
    this.#opener = new WorkerQuestionOpener({ warn: ctx.warn })
    this.#notices = new RelayNotices(ctx.notices)
  }

  /**
   * Starts the bridge in the background and returns it with `ready`, which resolves once the desk
   * watches the relay, or the bridge gave up (the reason is a warning and a notice). Never rejects.
   */
  static start(ctx: RelayBridgeContext): { bridge: RelayBridge; ready: Promise<void> } {
    const bridge = new RelayBridge(ctx)
    const ready = bridge.#run().catch((error: unknown) => {
      if (bridge.#closed.signal.aborted) return
      const message = `the relay bridge stopped: ${describeRelayError(error)}`
      ctx.warn(message)
      bridge.#notices.problem(message)
      ctx.relayState.stopped(message)
    })
    return { bridge, ready }
  }

  /** Stops watching the relay and closes the link. Remote asks stay on the relay for the next start. */
  async close(): Promise<void> {
    this.#closed.abort()
    clearInterval(this.#renewals)
    this.#passwords?.close()
    this.#mirror?.close()
    this.#desk?.close()
    await this.#opener.close()
    await this.#link?.close().catch(() => undefined)
  }

  async #run(): Promise<void> {
    const { home, now, warn } = this.#ctx
    const renewal = await this.#renew()
    if (renewal.role === 'none') return
    const identity = await loadDeskIdentity(home, renewal.role, now)
    this.#self = identity.device.member.id
    this.#ctx.relayState.desk({ id: this.#self, name: identity.device.member.name, role: renewal.role })
    followStoredRoster(home, this.#ctx.relayState, this.#closed.signal, warn)
    this.#creds = identity.creds
    const passwords = await RemotePasswords.start(
      home,
      () => {
        reviseRemoteSecretAsks(this.#ctx.registry, this.#listed.values(), passwords)
        this.#ctx.relayState.passwordsAllowed(passwords.allowedAgentIds(), (id, paired) =>
          passwords.devicesOf(id, paired),
        )
      },
      warn,
    )
    this.#passwords = passwords
    this.#ctx.relayState.passwordsAllowed(passwords.allowedAgentIds(), (id, paired) => passwords.devicesOf(id, paired))
    if (this.#closed.signal.aborted) return passwords.close()
    this.#renewals = setInterval(() => void this.#renewWhileRunning(renewal.role), RENEW_EVERY_MS)
    this.#renewals.unref()
    const told = { notices: this.#notices, relayState: this.#ctx.relayState }
    const target = { url: identity.url, name: identity.natsName, creds: () => this.#creds }
    const link = await reachRelay(target, told, this.#closed.signal)
    if (!link) return
    this.#link = link
    void followLink(link, identity.url, told)
    const desk = await RelayDesk.start(
      {
        link,
        device: identity.device,
        rootPublicKey: identity.rootPublicKey,
        highestSeenRosterVersion: renewal.rosterVersion,
        opener: this.#opener.open,
        onRefused: (refusal) => warn(refusedOnRelayText(refusal)),
        ...(renewal.role === 'desktop'
          ? {
              onRosterAccepted: keepStandingPasswordRules(
                home,
                { nc: link.nc, desktop: identity.device },
                renewal.rosterVersion,
                warn,
              ),
            }
          : {}),
      },
      this.#closed.signal,
    )
    if (this.#closed.signal.aborted) return desk.close()
    this.#desk = desk
    // First, so the view's agent contact is current when the registry's change announces the state.
    followAgentContact(desk, this.#ctx.relayState, this.#closed.signal)
    if (renewal.role === 'desktop') {
      this.#mirror = startLocalAskMirror(this.#ctx, link, desk, identity, renewal.rosterVersion)
      // Phones' push subscriptions into the roster's sealed push section as they arrive (relay/push).
      this.#push = followPushSubscriptions(home, link, { signal: this.#closed.signal, warn, now })
    }
    desk.onAdded((remote) => this.#add(remote))
    desk.onSettled((settled) => this.#settled(settled))
    followPresence(desk, this.#ctx.registry, () => this.#listed.values())
    for (const remote of desk.pending()) this.#add(remote)
  }

  /** renewRelayAtStart, its warnings shown as notices. */
  async #renew(): Promise<Awaited<ReturnType<typeof renewRelayAtStart>>> {
    const { home, now, warn } = this.#ctx
    const renewal = await renewRelayAtStart(home, { now, server: CLI_SERVER_CHECKS })
    if (renewal.role === 'none') return renewal
    for (const warning of renewal.warnings) {
      warn(warning)
      this.#notices.problem(warning)
    }
    if (renewal.problem !== undefined) warn(`relay renewal: ${renewal.problem}`)
    return renewal
  }

  async #renewWhileRunning(role: 'desktop' | 'device'): Promise<void> {
    try {
      await this.#renew()
      this.#creds = (await loadDeskIdentity(this.#ctx.home, role, this.#ctx.now)).creds
    } catch (error) {
      this.#ctx.warn(`relay renewal: ${describeRelayError(error)}`)
    }
  }

  #add(remote: RemoteAsk): void {
    const desk = this.#desk
    if (this.#listed.has(remote.key) || !desk) return
    // This desk's own mirrored asks are listed already, as the local asks they are.
    if (remote.agent.id === this.#self) return this.#mirror?.withdrawIfStale(remote)
    const input = remoteNewAsk(remote, this.#ctx.limits, this.#passwords?.allows(remote.agent.id) === true)
    const full = this.#ctx.registry.size >= this.#ctx.limits.pendingTotal
    if (!('kind' in input) || full) {
      // Not listed, and nothing is answered for the person: the agent's ask waits on the relay until it expires.
      const why = 'kind' in input ? `at most ${this.#ctx.limits.pendingTotal} asks may be pending` : input.message
      const message = `A remote ask from "${remote.agent.name}" was not shown: ${why}`
      this.#ctx.warn(message)
      this.#notices.problem(message)
      return
    }
    try {
      const ask = this.#ctx.registry.add({
        ...withCurrentPresence(input, this.#desk),
        owner: {
          // The relay's own receipt or this desk's answer settles it; nothing goes back through here.
          settled: () => true,
          submit: (key, answers) => this.#reply(key, { answers }, (signal) => desk.answer(key, answers, signal)),
        },
      })
      this.#listed.set(remote.key, ask.askId)
      if (ask.kind === 'approval') {
        this.#approvals.add(remote.key)
        this.#ctx.registry.decideThrough(ask.askId, (decision) =>
          this.#reply(remote.key, { decision }, (signal) => desk.decide(remote.key, decision, signal)),
        )
      }
    } catch (error) {
      this.#ctx.warn(`a remote ask from "${remote.agent.name}" could not be listed: ${errorMessage(error)}`)
    }
  }

  #settled(settled: RemoteAskSettled): void {
    if (settled.pushGone) this.#push?.reportGone(settled.pushGone)
    const askId = this.#listed.get(settled.key)
    if (askId === undefined) return
    // The agent's receipt for this desk's own answer can overtake the answer's acknowledgement: the
    // answer's submit settles it, with the answers, and the window that sent them is told it was accepted.
    if (this.#answering.has(settled.key) && settled.winner?.id === this.#self) {
      this.#answering.set(settled.key, true)
      return
    }
    const kind = this.#approvals.has(settled.key) ? 'approval' : 'question'
    this.#forget(settled.key)
    this.#ctx.registry.settle(askId, relaySettlement(settled, kind))
  }

  #forget(key: string): void {
    this.#listed.delete(key)
    this.#approvals.delete(key)
  }

  /**
   * Sends a window's answers or decision for the remote ask `key` through `write` (the desk's answer or
   * decide) and settles by what the relay took: won, lost to another device (named), an alarm, or a
   * refusal that leaves the ask pending.
   */
  async #reply(
    key: string,
    reply: RemoteReply,
    write: (signal: AbortSignal) => Promise<AnswerResult>,
  ): Promise<Settlement | Refusal> {
    if (this.#closed.signal.aborted)
      return { ok: false, code: 'NOT_PENDING', message: 'the relay bridge is closed; nothing was sent' }
    this.#answering.set(key, false)
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(ANSWER_WAIT_MS), this.#closed.signal])
      const settlement = answerSettlement(await write(signal), reply, this.#self)
      if (!('outcome' in settlement)) this.#notices.alarm(settlement.message)
      else this.#forget(key)
      return settlement
    } catch (error) {
      // The agent took this very reply (its receipt says so) though the write's reply never came.
      if (this.#answering.get(key) === true) {
        this.#forget(key)
        return 'decision' in reply
          ? { outcome: 'decided', decision: reply.decision }
          : { outcome: 'answered', answers: reply.answers }
      }
      if (isRelayExchangeError(error, 'ALWAYS_NOT_REMOTE'))
        return { ok: false, code: 'FORBIDDEN', message: `${describeRelayError(error)}; nothing was sent` }
      if (isRelayExchangeError(error, 'ASK_NOT_PENDING'))
        return { ok: false, code: 'NOT_PENDING', message: 'this remote ask is no longer pending; nothing was sent' }
      if (isRelayExchangeError(error))
        return { ok: false, code: 'INVALID_ANSWER', message: `${describeRelayError(error)}; nothing was sent` }
      return {
        ok: false,
        code: 'INVALID_ANSWER',
        message: `the relay did not take your answer within ${ANSWER_WAIT_MS / 1000} s (it is unreachable); send it again once it is back`,
      }
    } finally {
      this.#answering.delete(key)
    }
  }
}
