import { join } from 'node:path'
import type { ConnectInfo } from '../shared/connect'
import type { Ask, HistoryEntry, InboxNotice, Outcome } from '../shared/ask'
import type { Settings } from '../shared/settings'
import { UI_PATH, type UiServerFrame } from '../shared/ui'
import { AGENT_PATH } from '../shared/wire'
import { version as packageVersion } from '../package.json'
import { helperIdentityOf, type HelperIdentity } from './askpass-mark'
import { assertNoLiveOwner, removeEndpointFile, writeEndpointFile } from './discovery'
import { ensurePrivateDir } from './private-files'
import { Heartbeat } from './heartbeat'
import { HISTORY_FILE, HistoryStore, historyLine, undeliveredEntry } from './history'
import { resolveHome } from './home'
import { statusBody } from './http-routes'
import { LISTEN_BACKLOG, createHttpServer, listenOnLoopback } from './http-server'
import { NoticeBoard } from './notice-board'
import { createPeerUidGate } from './peer-uid-gate'
import { DEFAULT_PRE_AUTH, PreAuthBudget, type PreAuthOptions } from './preauth-budget'
import { Registry } from './registry'
import { RelayStateBoard } from './relay-bridge/relay-state'
import { startRelayBridge } from './relay-bridge/start'
import { loadSettings, mergeSettings } from './settings-store'
import { SocketEndpoints } from './sockets'
import { createTokenCheck, newToken } from './token'
import { WindowHub, type WindowSession } from './ui-channel'
import { WindowAccess } from './window-access'
import type { Redeemer } from './window-access'
import { removeWindowFile, writeWindowFile } from './window-file'
import type { IncomingMessage } from 'node:http'
import type { CompanionStatus } from '../shared/endpoint'
import { errorMessage } from '../shared/describe-error'
import { Listeners } from '../shared/listeners'

/** Options of {@link startCompanion}; every field is optional. */
export interface CompanionOptions {
  /** Folder for endpoint.json, settings.json, history.jsonl; default `resolveHome(process.env)`. */
  home?: string
  /** Overrides `settings.port`; 0 picks a free port. */
  port?: number
  /** Overrides layered on top of settings.json. */
  settings?: Partial<Settings>
  /**
   * The person's settings as the caller already read them (the desktop's settings store); then
   * settings.json is not read again, so a broken file warns once. `settings` still applies on top.
   */
  loadedSettings?: Settings
  /** When set, plain HTTP GETs serve this built renderer folder (index.html + assets). */
  staticDir?: string
  /** Write endpoint.json (default true); also refuses to start over a live companion. */
  writeDiscovery?: boolean
  /** Ping interval in milliseconds (default 30,000); a peer missing a pong is terminated. */
  heartbeatMs?: number
  /** Milliseconds an upgraded agent has to send `hello` (default 10,000). */
  handshakeTimeoutMs?: number
  /** Bounds on connections that have not authenticated yet (defaults: `DEFAULT_PRE_AUTH`, preauth-budget.ts). */
  preAuth?: Partial<PreAuthOptions>
  /** What `welcome` and `/v1/status` report (default `ask-user-companion` and the package version). */
  serverInfo?: { name: string; version: string }
  /** Clock for `receivedAt` / `settledAt` (epoch milliseconds). */
  now?: () => number
  /** Where warnings go (corrupt settings, history write failures); default stderr. */
  onWarning?: (message: string) => void
  /** How agents on this machine run `ask-user` (see `connectInfo`); windows show it in "Connect an agent". */
  connect?: ConnectInfo
  /**
   * Who redeems a page link (default: the kernel's socket table on Linux, else unknown, so the person
   * confirms 6 digits). Tests of the confirmation path inject `() => 'unknown'`.
   */
  redeemer?: (req: IncomingMessage) => Redeemer | Promise<Redeemer>
  /**
   * This install's askpass helper, whose asks get the companion-set askpass mark; default: derived
   * from `connect` (and the app's executable when the core runs inside Electron). See askpass-mark.ts.
   */
  askpassHelper?: HelperIdentity
  /**
   * Brings the host's own question window to the front (the desktop app); `ask-user open` asks for it
   * with the window credential (`POST /v1/window/show`). Absent (`ask-user serve`): that route answers
   * 404 `NO_OWN_WINDOW` and `ask-user open` opens the page through a one-time link instead.
   */
  showWindow?: () => void
}

/**
 * A non-socket window (Electron IPC): frames from the window go to `receive()`, checked by the caller
 * at its edge (core/ui-frames.ts `parseWindowFrame`); `close()` detaches.
 */
export type WindowHandle = WindowSession

/** A running companion. */
export interface Companion {
  readonly port: number
  readonly token: string
  /** `ws://127.0.0.1:<port>/v1/agent` */
  readonly agentUrl: string
  /** `ws://127.0.0.1:<port>/v1/ui` */
  readonly uiUrl: string
  /** `http://127.0.0.1:<port>/`: the page; a window needs a link from {@link Companion.windowLink} to sign in. */
  readonly pageUrl: string
  /** The window credential now (it rotates when a link is opened twice); never in endpoint.json. */
  windowCredential(): string
  /** A one-time page link `http://127.0.0.1:<port>/#code=<code>` (60 s, one redemption). */
  windowLink(): string
  /** The person typed the digits a page shows (platforms where the redeemer's uid cannot be told). */
  confirmWindow(digits: string): boolean
  readonly home: string
  readonly settings: Settings
  /** The pending asks, oldest first. */
  pending(): Ask[]
  /** The inbox's notices, oldest first (not asks: nothing waits on them). */
  notices(): InboxNotice[]
  /**
   * Attaches a window: it gets a snapshot at once, then every broadcast, until `close()`. `onFault` is
   * called when handling one of its frames threw: the handle is closed by then (attach again).
   */
  attachWindow(send: (frame: UiServerFrame) => void, options?: { onFault?: (error: unknown) => void }): WindowHandle
  /**
   * Resolves once the relay bridge watches the relay, or when the home has no relay, or when the bridge
   * gave up (a warning and a notice say why). Never rejects.
   */
  readonly relayReady: Promise<void>
  /** Subscribes to one of the {@link CompanionEvents}; returns the unsubscribe function. */
  on<E extends keyof CompanionEvents>(event: E, listener: (...args: CompanionEvents[E]) => void): () => void
  /** The newest settled asks (default: the whole kept history), newest first. */
  history(limit?: number): Promise<HistoryEntry[]>
  /** Graceful shutdown; idempotent (later calls return the same promise). */
  close(): Promise<void>
}

/** What the companion tells its host about, with each event's arguments. */
export interface CompanionEvents {
  /** A new pending ask. */
  added: [ask: Ask]
  /** A pending ask was settled, and how. */
  resolved: [askId: string, outcome: Outcome]
  /** A new notice on the board (an agent waits for input, or its turn ended). */
  notice: [notice: InboxNotice]
}

const SHUTDOWN_GRACE_MS = 2_000

/**
 * Starts the companion core: loads settings, refuses to start over a live companion (when writing
 * discovery), listens on 127.0.0.1, writes endpoint.json. Rejects with a clear message when the port
 * is taken or another companion owns the discovery file.
 */
export async function startCompanion(options: CompanionOptions = {}): Promise<Companion> {
  const warn =
    options.onWarning ?? ((message: string) => void process.stderr.write(`ask-user-companion: warning: ${message}\n`))
  const now = options.now ?? Date.now
  const home = options.home ?? resolveHome(process.env)
  const writeDiscovery = options.writeDiscovery ?? true
  const serverInfo = options.serverInfo ?? { name: 'ask-user-companion', version: packageVersion }
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 10_000

  await ensurePrivateDir(home)
  const loaded = options.loadedSettings ? { settings: options.loadedSettings } : await loadSettings(home)
  if ('warning' in loaded && loaded.warning) warn(loaded.warning)
  const settings = mergeSettings(loaded.settings, options.settings)
  if (writeDiscovery) await assertNoLiveOwner(home)

  const token = newToken()
  const tokenMatches = createTokenCheck(token)
  const access = new WindowAccess(now)
  const registry = new Registry(now, warn, settings.limits.textChars)
  const { historyBytes, historyEntryBytes, historyPageBytes } = settings.limits
  const history = new HistoryStore(join(home, HISTORY_FILE), {
    enabled: settings.history,
    limit: settings.historyLimit,
    maxBytes: historyBytes,
    entryBytes: historyEntryBytes,
    pageBytes: historyPageBytes,
    warn,
  })
  await history.init()
  if (settings.history)
    registry.onResolved((ask, settlement, settledAt, delivered) =>
      history.recordLine(historyLine(ask, settlement, settledAt, delivered)),
    )
  registry.onUndelivered((ask, answers, at) => {
    const entry = undeliveredEntry(ask, answers, at)
    if (entry) history.record(entry)
  })
  const notices = new NoticeBoard(now, warn)
  const report = (error: unknown): void => warn(`listener failed: ${errorMessage(error)}`)
  const events: { [E in keyof CompanionEvents]: Listeners<CompanionEvents[E]> } = {
    added: new Listeners(report),
    resolved: new Listeners(report),
    notice: new Listeners(report),
  }
  registry.onAdded((ask) => events.added.emit(ask))
  registry.onResolved((ask, settlement) => events.resolved.emit(ask.askId, settlement.outcome))
  notices.onChange((change) => {
    if ('added' in change) events.notice.emit(change.added)
  })
  const relayState = new RelayStateBoard(registry, now, warn)
  const hub = new WindowHub({
    registry,
    notices,
    relayState,
    history: (request) => history.page(request),
    warn,
    ...(options.connect ? { connect: options.connect } : {}),
  })
  const heartbeat = new Heartbeat(options.heartbeatMs ?? 30_000)
  let port = 0
  const preAuthOptions = { ...DEFAULT_PRE_AUTH, ...options.preAuth }
  const preAuth = new PreAuthBudget(preAuthOptions)
  const sockets: SocketEndpoints = new SocketEndpoints({
    registry,
    notices,
    hub,
    heartbeat,
    limits: settings.limits,
    serverInfo,
    handshakeTimeoutMs,
    port: () => port,
    warn,
    agentSecret: () => token,
    tokenMatches,
    windowSecret: () => access.current(),
    windowMatches: (presented) => access.matches(presented),
    status: (): CompanionStatus => statusBody(serverInfo, registry.size, sockets.agents.size, hub.size),
    askpassHelper:
      options.askpassHelper ??
      helperIdentityOf(options.connect, process.versions['electron'] ? process.execPath : undefined),
    authenticated: (socket) => preAuth.authenticated(socket),
    proving: (socket) => preAuth.proving(socket),
    preAuthDeadlineMs: preAuthOptions.deadlineMs,
  })
  const pageBase = (): string => `http://127.0.0.1:${port}/`
  const peerUidGate = preAuthOptions.dropOtherUsers
    ? createPeerUidGate({
        ownUid: process.getuid?.() ?? 0,
        warn,
        foreign: (socket) => {
          if (preAuth.isPreAuth(socket)) socket.destroy() // a peer that already showed the token crowds nothing out
        },
      })
    : undefined

  const server = createHttpServer({
    routes: {
      port: () => port,
      tokenMatches,
      staticDir: options.staticDir,
      status: () => statusBody(serverInfo, registry.size, sockets.agents.size, hub.size),
      windows: {
        access,
        pageBase,
        ...(options.redeemer ? { redeemer: options.redeemer } : {}),
        ...(options.showWindow ? { showWindow: options.showWindow } : {}),
      },
    },
    preAuth,
    preAuthDeadlineMs: preAuthOptions.deadlineMs,
    ...(peerUidGate ? { onAccepted: (socket) => peerUidGate.check(socket) } : {}),
    // A backstop only: pre-auth sockets run over their budget by at most two accept bursts (one
    // turn), so this refuses a newcomer at accept only when authenticated sockets fill the cap.
    maxConnections: settings.limits.connections + preAuthOptions.maxSockets + 2 * LISTEN_BACKLOG,
    onUpgrade: (req, socket, head) => sockets.handleUpgrade(req, socket, head),
  })
  port = await listenOnLoopback(server, options.port ?? settings.port)

  const agentUrl = `ws://127.0.0.1:${port}${AGENT_PATH}`
  if (writeDiscovery) {
    try {
      await writeEndpointFile(home, agentUrl, token)
      await writeWindowFile(home, { credential: access.current(), page: pageBase() })
    } catch (error) {
      server.close()
      throw error
    }
  }
  // Rewrites of window.json after a rotation, one after another; shutdown waits for them, so none lands
  // after the file is removed (a stale credential left in the home).
  let windowFileWrites = Promise.resolve()
  access.onRotate((reason) => {
    sockets.closeWindowSockets(`window credential rotated: ${reason}`)
    warn(`the window credential was rotated: ${reason}`)
    if (writeDiscovery) {
      windowFileWrites = windowFileWrites
        .then(() => writeWindowFile(home, { credential: access.current(), page: pageBase() }))
        .catch((error: unknown) => warn(`cannot rewrite window.json: ${String(error)}`))
    }
  })
  heartbeat.start()
  // Remote asks join the same registry and windows (docs/relay.md "The bridge"); without a relay, nothing loads.
  const relay = startRelayBridge({ home, registry, notices, limits: settings.limits, relayState, warn, now })

  let closing: Promise<void> | undefined
  const shutdown = async (): Promise<void> => {
    heartbeat.stop()
    await relay.close()
    await sockets.closeAll(SHUTDOWN_GRACE_MS)
    hub.dispose()
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
    await history.flush()
    await windowFileWrites
    if (writeDiscovery) {
      await removeEndpointFile(home, token).catch((error: unknown) =>
        warn(`cannot remove endpoint.json: ${String(error)}`),
      )
      await removeWindowFile(home, access.current()).catch((error: unknown) =>
        warn(`cannot remove window.json: ${String(error)}`),
      )
    }
  }

  return {
    port,
    token,
    agentUrl,
    uiUrl: `ws://127.0.0.1:${port}${UI_PATH}`,
    pageUrl: pageBase(),
    windowCredential: () => access.current(),
    windowLink: () => `${pageBase()}#code=${access.mintCode()}`,
    confirmWindow: (digits) => access.confirm(digits),
    home,
    settings,
    pending: () => registry.pending(),
    notices: () => notices.list(),
    attachWindow: (send, attach) =>
      hub.attach((frame) => send(frame), attach?.onFault ? { onFault: attach.onFault } : {}),
    on: (event, listener) => events[event].add(listener),
    relayReady: relay.ready,
    history: (limit) => history.read(limit),
    close: () => (closing ??= shutdown()),
  }
}
