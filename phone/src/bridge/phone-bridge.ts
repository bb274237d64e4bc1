// The phone's CompanionBridge: a RelayDesk run with the phone's own keys and credential over WebSocket,
// its events turned into the UI v2 frames the renderer already reads (desk-frames.ts). There is no core:
// this object is the phone's inbox. Nothing decrypted is stored; the desk holds the open asks in memory.
import { isRelayExchangeError } from '../../../relay/exchange/errors'
import type { RelayDesk, RemoteAsk } from '../../../relay/exchange/relay-desk'
import type { Answer } from '../../../shared/answer'
import type { ApprovalDecision } from '../../../shared/approval'
import type { BridgeStatus, CompanionBridge } from '../../../shared/bridge'
import { errorMessage } from '../../../shared/describe-error'
import type { UiServerFrame } from '../../../shared/ui'
import type { PhoneRecord } from '../home/phone-record'
import { hasSecret } from '../../../shared/question-extras'
import { answerFrames, PHONE_ALWAYS_REFUSED, phoneAsk, phoneOrigin, replyOutcome, settledFrame } from './desk-frames'
import { PhoneNotices } from './phone-notices'
import { permanentRefusal, PhoneRemovedError, type PhoneRefusal } from './phone-refusals'
import { openPhoneSession, type PhoneDialOptions, type PhoneSession as Session } from './phone-session'

/** What the phone bridge needs besides the record. */
export interface PhoneBridgeOptions extends PhoneDialOptions {
  /**
   * Subscribes to moments a fresh connection is worth dialling (the browser's `online`, the page
   * becoming visible: RELAY.md §3.2 measured 5 s for a fresh dial against 35 s for the client's own
   * reconnect after a phone wakes). Returns the unsubscribe function. Default: none.
   */
  wake?: (redial: () => void) => () => void
  /** Pause between dials while unreachable (default 2 s). */
  retryMs?: number
  /**
   * Stores the record again when the desk accepted a newer root-signed roster (its bytes and
   * `highestRosterVersion`) or a newer password record (`highestPasswordsVersion`), so that a rollback
   * of either is refused after a reload too.
   */
  saveRecord?: (record: PhoneRecord) => Promise<void>
  now?: () => number
}

/**
 * Starts the phone's inbox for `record` and returns its bridge. The first `onFrame` listener gets a
 * `snapshot`, and a new one follows every (re)connect. `answer` goes through `desk.answer` (first answer
 * wins; a lost race settles the ask "answered on <device>"); `decide` goes through `desk.decide` for a
 * mirrored approval, allow once or deny only ("always allow" is refused `FORBIDDEN`: it would change the
 * asking desktop's permission rules); `dismiss` is refused (`FORBIDDEN`): only its agent withdraws an ask.
 * A secret ask is answerable only when the desktop allowed its agent's passwords on this phone (the sealed
 * record phone-passwords.ts follows; its answer goes sealed to the ask's reply key, as from any desk);
 * otherwise it is shown and refused (`FORBIDDEN`, with where to allow it). Status: `connecting` → `open`,
 * `unreachable` while the relay is not reached (it keeps dialling), `refused` when no retry can mend it
 * (phone-refusals.ts: an outdated server, a refused credential, a roster without this phone; a notice says
 * what to do, and only a wake or a reload dials again), `closed` after `close()`. `record()` is the
 * record as this bridge last stored it (a newer roster, password record or credential than it started with).
 */
export function createPhoneBridge(
  stored: PhoneRecord,
  options: PhoneBridgeOptions,
): CompanionBridge & { record(): PhoneRecord; close(): Promise<void> } {
  let record = stored
  const now = options.now ?? Date.now
  const frameListeners = new Set<(frame: UiServerFrame) => void>()
  const statusListeners = new Set<(status: BridgeStatus) => void>()
  const receivedAt = new Map<string, number>()
  const notices = new PhoneNotices(now)
  /** How each listed ask settles when delivered (a mirrored approval is `decided`), kept past its listing. */
  const outcomes = new Map<string, 'answered' | 'decided'>()
  const closed = new AbortController()
  let status: BridgeStatus = 'connecting'
  let session: Session | undefined
  let generation = 0
  // This phone's member id (from its keys, not its NATS name): a receipt naming it is our own answer.
  let self = ''

  const emit = (frame: UiServerFrame): void => {
    for (const listener of [...frameListeners]) listener(frame)
  }
  const setStatus = (next: BridgeStatus): void => {
    if (next === status) return
    status = next
    for (const listener of [...statusListeners]) listener(next)
  }
  const passwordsAllowed = (remote: RemoteAsk): boolean => session?.passwords.allows(remote.agent.id) ?? false
  const shown = (desk: RelayDesk, remote: RemoteAsk) => {
    if (!receivedAt.has(remote.key)) receivedAt.set(remote.key, now())
    outcomes.set(remote.key, replyOutcome(remote))
    return phoneAsk(
      remote,
      receivedAt.get(remote.key)!,
      desk.unreachableSince(remote.agent.name),
      passwordsAllowed(remote),
    )
  }
  /** Tells the windows of every pending secret ask whether it is answerable here now. */
  const reviseSecretAsks = (): void => {
    const desk = session?.desk
    for (const remote of desk?.pending() ?? []) {
      if (!hasSecret({ questions: remote.questions as readonly { secret?: unknown }[] })) continue
      const origin = phoneOrigin(remote, desk!.unreachableSince(remote.agent.name), passwordsAllowed(remote))
      emit({ type: 'ask/origin', askId: remote.key, origin })
    }
  }
  const saveRecord = (next: PhoneRecord): void => {
    record = next
    options.saveRecord?.(record).catch((error: unknown) => console.warn(`phone record: ${errorMessage(error)}`))
  }
  const snapshot = (): void => {
    if (!session) return
    const desk = session.desk
    emit({ type: 'snapshot', pending: desk.pending().map((remote) => shown(desk, remote)), notices: notices.list() })
  }
  const reject = (askId: string, code: 'NOT_PENDING' | 'INVALID_ANSWER' | 'FORBIDDEN', reason: string): void =>
    emit({ type: 'ask/rejected', askId, code, reason })

  const dialOnce = (mine: number): Promise<Session | undefined> =>
    openPhoneSession(options, {
      record: () => record,
      saveRecord,
      isCurrent: () => mine === generation,
      signal: closed.signal,
      now,
      onDeskRefused: (refusal) => {
        const added = notices.refused(refusal)
        if (added) emit({ type: 'notice/added', notice: added })
      },
      // Removed on the desktop while connected: nothing here can be answered any more.
      onRemoved: (link) => {
        if (mine === generation && session?.link === link) refuse(permanentRefusal(new PhoneRemovedError())!)
      },
      onPasswordsChange: reviseSecretAsks,
      // Shown, not only logged: the person learns why a password question they were allowed stays refused.
      onPasswordsRefused: (why) => {
        const added = notices.problem(`${why.charAt(0).toUpperCase()}${why.slice(1)}`)
        if (added) emit({ type: 'notice/added', notice: added })
      },
    })

  function follow(mine: number, { link, desk }: Session): void {
    const live = (): boolean => mine === generation
    desk.onAdded((remote) => live() && emit({ type: 'ask/added', ask: shown(desk, remote) }))
    desk.onSettled((settled) => {
      if (!live()) return
      receivedAt.delete(settled.key)
      emit(settledFrame(settled, self, outcomes.get(settled.key)))
      outcomes.delete(settled.key)
    })
    desk.onPresence((change) => {
      if (!live()) return
      // An approval carries no origin (shared/ask.ts): presence marks are shown on question asks.
      const marked = desk.pending().filter((ask) => ask.agent.name === change.agent && ask.approval === undefined)
      for (const remote of marked)
        emit({
          type: 'ask/origin',
          askId: remote.key,
          origin: phoneOrigin(remote, change.unreachableSince, passwordsAllowed(remote)),
        })
    })
    void (async () => {
      for await (const event of link.nc.status()) {
        if (!live()) return
        if (event.type === 'disconnect') setStatus('unreachable')
        if (event.type === 'reconnect') {
          setStatus('open')
          snapshot()
        }
        // The client's own ping saw a dead link: a fresh dial is faster than its reconnect (RELAY.md §3.2).
        if (event.type === 'staleConnection') redial()
      }
    })()
  }

  async function dial(): Promise<void> {
    const mine = ++generation
    while (mine === generation && !closed.signal.aborted) {
      try {
        const next = await dialOnce(mine)
        if (!next) return
        session = next
        self = next.self
        follow(mine, next)
        setStatus('open')
        snapshot()
        return
      } catch (error) {
        if (closed.signal.aborted || mine !== generation) return
        const refusal = permanentRefusal(error)
        if (refusal) return refuse(refusal)
        setStatus('unreachable')
        if (!isRelayExchangeError(error, 'RELAY_NEVER_REACHED')) console.warn(`relay: ${errorMessage(error)}`)
        await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 2_000))
      }
    }
  }

  /** Drops the current connection object (never reused: a woken phone's socket may be dead) and dials anew. */
  function redial(): void {
    if (closed.signal.aborted) return
    dropSession()
    if (status === 'open') setStatus('connecting')
    void dial()
  }

  function dropSession(): void {
    const old = session
    session = undefined
    if (old) {
      old.passwords.close()
      old.desk.close()
      void old.link.close().catch(() => undefined)
    }
  }

  /** Stops dialling for a refusal no retry mends, and says why (once per refusal while its notice is listed). */
  function refuse(refusal: PhoneRefusal): void {
    generation++
    dropSession()
    setStatus('refused')
    const added = notices.problem(refusal.text)
    if (added) emit({ type: 'notice/added', notice: added })
    console.warn(`relay: ${refusal.code}`)
  }

  const stopWake = options.wake?.(redial)
  void dial()

  async function answer(askId: string, answers: Answer[]): Promise<void> {
    const desk = session?.desk
    const remote = desk?.pending().find((ask) => ask.key === askId)
    if (!desk || !remote) return reject(askId, 'NOT_PENDING', 'this ask is no longer pending here')
    const origin = phoneOrigin(remote, undefined, passwordsAllowed(remote))
    if (origin.unanswerable !== undefined) return reject(askId, 'FORBIDDEN', origin.unanswerable)
    try {
      for (const frame of answerFrames(askId, await desk.answer(askId, answers), self)) emit(frame)
    } catch (error) {
      if (isRelayExchangeError(error, 'EXCHANGE_INVALID')) return reject(askId, 'INVALID_ANSWER', error.message)
      reject(askId, 'NOT_PENDING', errorMessage(error))
    }
  }

  async function decide(askId: string, decision: ApprovalDecision): Promise<void> {
    const desk = session?.desk
    const remote = desk?.pending().find((ask) => ask.key === askId)
    if (!desk || !remote) return reject(askId, 'NOT_PENDING', 'this ask is no longer pending here')
    if (remote.approval === undefined)
      return reject(askId, 'INVALID_ANSWER', 'this ask has questions: answer them, it takes no decision')
    if (decision.behavior === 'allow' && decision.always === true)
      return reject(askId, 'FORBIDDEN', PHONE_ALWAYS_REFUSED)
    try {
      for (const frame of answerFrames(askId, await desk.decide(askId, decision), self, 'decided')) emit(frame)
    } catch (error) {
      if (isRelayExchangeError(error, 'EXCHANGE_INVALID')) return reject(askId, 'INVALID_ANSWER', error.message)
      reject(askId, 'NOT_PENDING', errorMessage(error))
    }
  }

  return {
    answer: (askId, answers) => void answer(askId, answers),
    decide: (askId, decision) => void decide(askId, decision),
    dismiss: (askId) =>
      reject(
        askId,
        'FORBIDDEN',
        'a remote ask cannot be dismissed from the phone; answer it or let its agent withdraw it',
      ),
    dismissNotice: (noticeId) => {
      notices.remove(noticeId)
      emit({ type: 'notice/removed', noticeId })
    },
    requestHistory: () => emit({ type: 'history', entries: [], more: false }),
    record: () => record,
    onFrame(listener) {
      frameListeners.add(listener)
      if (frameListeners.size === 1) snapshot()
      return () => frameListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      listener(status)
      return () => statusListeners.delete(listener)
    },
    async close() {
      closed.abort()
      generation++
      stopWake?.()
      const old = session
      session = undefined
      setStatus('closed')
      old?.passwords.close()
      old?.desk.close()
      await old?.link.close()
    },
  }
}
