// A QuestionOpener that runs relay/crypto's `openQuestion` on a worker thread, so the companion's event
// loop is not held by WebCrypto's JS, HKDF, key imports, the schema checks and their garbage (issue 32,
// docs/performance.md "The relay"). One long-lived worker, started at the first question, unref'd while idle.
// Nothing is lost when it dies: the questions it held are opened on this thread, and the next question
// starts a new worker.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { openQuestion, RelayCryptoError, type MemberKeys, type OpenedQuestion, type Roster } from '../crypto'
import { errorMessage } from '../../shared/describe-error'
import type { QuestionOpener } from './question-opener'
import type { OpenerReply, OpenerRequest } from './question-opener-messages'

/** The bundled worker's file name, beside the main and CLI bundles (electron.vite.config.ts). */
export const OPENER_WORKER_FILE = 'relay-opener-worker.js'

/** How to start the worker: a file, or (from sources) a small script that loads the TS entry. */
export interface OpenerWorkerScript {
  readonly source: string
  readonly eval: boolean
}

/**
 * Where the worker's code is. A bundle (out/main/cli.js, out/main/index.js, the packaged
 * resources/cli/main/cli.js or app.asar's out/main/index.js) has `relay-opener-worker.js` beside it.
 * Run from TypeScript sources (vitest), the worker loads question-opener-worker.ts through jiti, a
 * development-only path. Throws when neither is there (a broken build).
 */
export function openerWorkerScript(dir: string = __dirname): OpenerWorkerScript {
  const bundled = join(dir, OPENER_WORKER_FILE)
  if (existsSync(bundled)) return { source: bundled, eval: false }
  const typescript = join(dir, 'question-opener-worker.ts')
  if (existsSync(typescript)) {
    // No disk cache: the compiled files would be left in the temp folder of whoever runs the tests.
    const load = `require('jiti').createJiti(${JSON.stringify(typescript)}, { fsCache: false })(${JSON.stringify(typescript)})`
    return { source: load, eval: true }
  }
  throw new Error(`the relay's question-opening worker is missing (${bundled}); rebuild with npm run build`)
}

/** Options of {@link WorkerQuestionOpener}. */
export interface WorkerOpenerOptions {
  /** Told once per worker failure (the text never carries keys or question content). */
  warn?: (message: string) => void
  /** The worker's code (default: {@link openerWorkerScript}). */
  script?: () => OpenerWorkerScript
  /** Called with each worker started (observability and tests). */
  onStarted?: (worker: Worker) => void
}

interface Pending {
  readonly storedBytes: Uint8Array
  readonly options: { device: MemberKeys; roster: Roster; kvKey: string }
  readonly resolve: (opened: OpenedQuestion) => void
  readonly reject: (error: unknown) => void
}

/**
 * Opens questions on one worker thread with the contract and refusals of `openQuestion` (a refusal
 * rejects with a RelayCryptoError of the same code and message). The device's keys and the roster are
 * sent when they differ from what the worker holds; each question's bytes are copied once and
 * transferred. Use {@link WorkerQuestionOpener.open} as the desk's `opener`; {@link close} ends the worker.
 */
export class WorkerQuestionOpener {
  readonly #options: WorkerOpenerOptions
  readonly #pending = new Map<number, Pending>()
  #worker: Worker | undefined
  #sentDevice: MemberKeys | undefined
  #sentRoster: Roster | undefined
  #nextId = 0
  #closed = false
  /** A worker could not be created (its code is missing: a broken build); not retried. */
  #cannotStart = false

  constructor(options: WorkerOpenerOptions = {}) {
    this.#options = options
  }

  /** True while a worker thread is running. */
  get running(): boolean {
    return this.#worker !== undefined
  }

  /** The QuestionOpener: opens on the worker, or on this thread after close. */
  readonly open: QuestionOpener = (storedBytes, options) => {
    if (this.#closed || this.#cannotStart) return openQuestion(storedBytes, options)
    const worker = this.#worker ?? this.#start()
    if (!worker) return openQuestion(storedBytes, options)
    if (this.#sentDevice !== options.device) {
      this.#post(worker, { type: 'device', device: options.device })
      this.#sentDevice = options.device
    }
    if (this.#sentRoster !== options.roster) {
      this.#post(worker, { type: 'roster', roster: options.roster })
      this.#sentRoster = options.roster
    }
    const id = this.#nextId++
    // A copy in a buffer of its own, which moves to the worker. Never `slice()`: on a Buffer it is a
    // view, and NATS hands out views of one shared read buffer that the transfer would detach.
    const bytes = new Uint8Array(storedBytes)
    return new Promise<OpenedQuestion>((resolve, reject) => {
      this.#pending.set(id, { storedBytes, options, resolve, reject })
      // Held while a question is out, so a process waiting only for this answer does not exit early.
      if (this.#pending.size === 1) worker.ref()
      this.#post(worker, { type: 'open', id, storedBytes: bytes, kvKey: options.kvKey }, [bytes.buffer])
    })
  }

  /** Ends the worker; questions it still held are opened on this thread. Later questions open on this thread. */
  async close(): Promise<void> {
    this.#closed = true
    const worker = this.#worker
    this.#forget()
    this.#openHeldHere()
    await worker?.terminate()
  }

  /** A new worker, or undefined (told once) when none can be created: questions then open on this thread. */
  #start(): Worker | undefined {
    let worker: Worker
    try {
      const script = (this.#options.script ?? openerWorkerScript)()
      worker = new Worker(script.source, { eval: script.eval })
    } catch (error) {
      this.#cannotStart = true
      this.#options.warn?.(
        `the relay's question-opening worker could not start (${errorMessage(error)}); opening questions on the main thread`,
      )
      return undefined
    }
    worker.on('message', (reply: OpenerReply) => this.#settle(reply))
    worker.on('error', (error) => this.#lost(worker, error.message))
    worker.on('exit', (code) => this.#lost(worker, `it exited with code ${code}`))
    // Idle, it never keeps the process alive (after the listeners: adding a 'message' listener refs it).
    worker.unref()
    this.#worker = worker
    this.#options.onStarted?.(worker)
    return worker
  }

  #post(worker: Worker, request: OpenerRequest, transfer: ArrayBuffer[] = []): void {
    worker.postMessage(request, transfer)
  }

  #settle(reply: OpenerReply): void {
    const pending = this.#pending.get(reply.id)
    if (!pending) return
    this.#pending.delete(reply.id)
    if (this.#pending.size === 0) this.#worker?.unref()
    if (reply.outcome === 'opened') pending.resolve(reply.opened)
    else if (reply.outcome === 'refused') pending.reject(new RelayCryptoError(reply.code, reply.message))
    // Not a refusal: let this thread's openQuestion throw whatever it throws, exactly.
    else openHere(pending)
  }

  #lost(worker: Worker, why: string): void {
    if (this.#worker !== worker) return
    this.#forget()
    if (this.#closed) return
    this.#options.warn?.(
      `the relay's question-opening worker stopped (${why}); opening questions on the main thread until it restarts`,
    )
    this.#openHeldHere()
  }

  #forget(): void {
    this.#worker = undefined
    this.#sentDevice = undefined
    this.#sentRoster = undefined
  }

  #openHeldHere(): void {
    const held = [...this.#pending.values()]
    this.#pending.clear()
    for (const pending of held) openHere(pending)
  }
}

function openHere(pending: Pending): void {
  openQuestion(pending.storedBytes, pending.options).then(pending.resolve, pending.reject)
}
