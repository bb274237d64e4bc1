import { errorMessage } from '../../shared/describe-error'
import { HOOK_HARNESS_IDS, isHookHarnessId } from '../../integrations/ids'
import { noCompanionReason } from '../hooks/no-companion'
import type { CliIo, Command } from '../io'
import { EXIT, printError, readAll } from '../io'

const HELP = `Usage: ask-user hook <${HOOK_HARNESS_IDS.join('|')}> [EVENT_JSON]

The command a harness's hook runs: it reads one hook event (JSON) on stdin, or from its last argument
(Codex's notify), asks the person through the running companion and prints exactly the JSON the
harness expects. With no companion, when the person dismisses, or on any error it prints nothing and
exits 0, so that the harness asks in its own way; the reason goes to stderr. Set it up with
\`ask-user setup <harness> --hooks\`.
`

/** Connecting may take this long before the harness is left to ask by itself. */
const CONNECT_TIMEOUT_MS = 3_000
/** Reading the event may take this long (a harness writes it at once and closes stdin). */
const STDIN_TIMEOUT_MS = 10_000
/** How often the hook checks that the harness that started it is still alive. */
const PARENT_CHECK_MS = 500

/** The event on stdin, or an error saying why it never came (interrupted, or nothing within the limit). */
async function readEvent(stream: NodeJS.ReadableStream, signal: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(STDIN_TIMEOUT_MS)
  return readAll(stream, AbortSignal.any([signal, timeout])).catch((error: unknown) => {
    if (signal.aborted) throw new Error('interrupted while reading the event')
    if (timeout.aborted) throw new Error(`no event on stdin within ${STDIN_TIMEOUT_MS / 1000} s`)
    throw error
  })
}

/** Aborts when the harness that started the hook is gone (the hook was re-parented). */
function parentWatch(controller: AbortController): () => void {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid !== parent) controller.abort()
  }, PARENT_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}

function note(io: CliIo, harness: string, reason: string): void {
  io.stderr.write(`ask-user hook ${harness}: ${reason}; nothing printed\n`)
}

/** `ask-user hook <harness>`: one hook event in, the harness's exact answer (or nothing) out, exit 0. */
export const run: Command = async (args, io) => {
  const [harness, argument, extra] = args
  if (harness === '--help' || harness === '-h') {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  if (harness === undefined || !isHookHarnessId(harness) || extra !== undefined) {
    printError(
      io,
      `${harness === undefined ? 'which harness?' : extra !== undefined ? `unexpected argument "${extra}"` : `unknown harness "${harness}"`}; one of ${HOOK_HARNESS_IDS.join(', ')}`,
    )
    return EXIT.INVALID_INPUT
  }
  const controller = new AbortController()
  const onAbort = (): void => controller.abort()
  io.signal.addEventListener('abort', onAbort, { once: true })
  const stopWatch = parentWatch(controller)
  try {
    let event: unknown
    try {
      event = JSON.parse(argument ?? (await readEvent(io.stdin, controller.signal))) as unknown
    } catch (error) {
      note(io, harness, errorMessage(error))
      return EXIT.OK
    }
    // With plainly no companion, nothing can be asked: say so without loading zod and the client.
    const absent = await noCompanionReason(io.env)
    if (absent !== undefined) {
      note(io, harness, absent)
      return EXIT.OK
    }
    const { answerHookEvent } = await import('../hooks/answer-event')
    const from = argument === undefined ? 'stdin' : 'argument'
    const outcome = await answerHookEvent(harness, event, from, io.env, CONNECT_TIMEOUT_MS, controller.signal)
    if (outcome.stdout !== undefined) io.stdout.write(`${outcome.stdout}\n`)
    if (outcome.note !== undefined) note(io, harness, outcome.note)
    return EXIT.OK
  } finally {
    stopWatch()
    io.signal.removeEventListener('abort', onAbort)
  }
}
