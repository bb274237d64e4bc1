import { AskUserClient } from '../../agent/client'
import { isAskUserError } from '../../shared/error-codes'
import { errorMessage } from '../../shared/describe-error'
import { validateAskInput } from '../../shared/validate-input'
import { version } from '../../package.json'
import { askpassQuestion, outcomeOf, type Outcome } from '../askpass/card'
import type { Receiver } from '../../core/askpass-receiver'
import { commandLineOf, parentReceiver, redactedCommandLine } from '../askpass/parent-command'
import { watchParent } from '../askpass/parent-watch'
import { promptKind, type PromptKind } from '../askpass/prompt-kind'
import { RepeatMemory } from '../askpass/repeats'
import { askOnTerminal } from '../askpass/tty-prompt'
import type { CliIo, Command } from '../io'

/**
 * The name in the helper's hello, for the person's eyes only: nothing decides on it. Which asks are
 * the helper's is found by the companion itself (core/askpass-mark.ts).
 */
export const ASKPASS_CLIENT_NAME = 'ask-user-askpass'

/** What the helper needs besides the process's streams (injected by tests). */
export interface AskpassDeps {
  ppid: number
  now: () => number
  /** The parent's arguments, for the title (default: read from /proc or ps). */
  parentArgs?: (pid: number) => string[]
  /** Who receives the answer, from the kernel (default {@link parentReceiver}). */
  receiver?: (pid: number) => Receiver
  /** Default `process.platform`. */
  platform?: NodeJS.Platform
  /** Asks on /dev/tty (default {@link askOnTerminal}). */
  terminal?: (prompt: string, secret: boolean) => string | undefined
  memoryDir?: string
}

/**
 * `ask-user-askpass PROMPT`: the askpass program of sudo, ssh and git (SUDO_ASKPASS, SSH_ASKPASS,
 * GIT_ASKPASS). Asks the person through the companion; prints only the answer and a newline on
 * stdout (exit 0), or exits 1 (dismissed, refused, no companion and no terminal, parent gone,
 * SIGTERM). Never reads stdin.
 */
export function askpassCommand(deps: AskpassDeps): Command {
  return async (args, io) => {
    const prompt = args[0] ?? ''
    const kind = promptKind(prompt, io.env['SSH_ASKPASS_PROMPT'])
    const parent = (deps.parentArgs ?? commandLineOf)(deps.ppid)
    const receiver = redactedCommandLine(parent)
    const platform = deps.platform ?? process.platform
    const judged = (deps.receiver ?? ((pid: number) => parentReceiver(pid, platform)))(deps.ppid)
    const memory = new RepeatMemory(`${deps.ppid}\0${parent.join('\0')}`, deps.memoryDir)
    const now = deps.now()
    if (memory.recentlyDismissed(now)) {
      io.stderr.write('ask-user-askpass: dismissed less than a minute ago for this program; not asking again\n')
      return 1
    }
    const question = askpassQuestion({
      kind,
      prompt,
      receiver: judged,
      commandLine: receiver,
      platform,
      repeat: memory.isRepeat(prompt, now),
    })
    const checked = validateAskInput({ questions: [question] })
    if (!checked.ok) {
      io.stderr.write(`ask-user-askpass: ${checked.message}\n`)
      return 1
    }
    const controller = new AbortController()
    const abort = (): void => controller.abort()
    io.signal.addEventListener('abort', abort, { once: true })
    const stopWatch = watchParent(deps.ppid, abort, judged.program === 'ssh')
    const client = new AskUserClient({ env: io.env, cwd: io.cwd, name: ASKPASS_CLIENT_NAME, version, relay: false })
    try {
      const answer = await client.ask(checked.value, {
        signal: controller.signal,
        ...(receiver ? { title: receiver } : {}),
      })
      const first = answer.answers[0] ?? { selected: [] }
      if (kind === 'secret' || kind === 'username') memory.answered(prompt, deps.now())
      return finish(outcomeOf(kind, first), io)
    } catch (error) {
      if (isAskUserError(error) && error.code === 'ASK_CANCELLED') {
        memory.dismissed(deps.now())
        io.stderr.write('ask-user-askpass: dismissed by the person\n')
        return 1
      }
      if (isAskUserError(error) && error.code === 'NO_PROVIDER')
        return onTerminal(kind, prompt, io, deps, errorMessage(error))
      io.stderr.write(
        `ask-user-askpass: ${controller.signal.aborted ? 'withdrawn (the program that asked is gone or its connection closed, or SIGTERM)' : errorMessage(error)}\n`,
      )
      return 1
    } finally {
      stopWatch()
      io.signal.removeEventListener('abort', abort)
      await client.close()
    }
  }
}

/** No companion: ask on the controlling terminal if there is one, else one line on stderr, exit 1. */
function onTerminal(kind: PromptKind, prompt: string, io: CliIo, deps: AskpassDeps, why: string): number {
  const typed = kind === 'notice' ? undefined : (deps.terminal ?? askOnTerminal)(prompt, kind === 'secret')
  if (typed === undefined) {
    io.stderr.write(`ask-user-askpass: ${why}\n`)
    return 1
  }
  if (kind === 'host-key') return finish(/^(yes|y)$/i.test(typed.trim()) ? { print: 'yes' } : { exit: 1 }, io)
  if (kind === 'confirm') return /^(yes|y|allow)$/i.test(typed.trim()) ? 0 : 1
  return finish({ print: typed }, io)
}

function finish(outcome: Outcome, io: CliIo): number {
  if ('exit' in outcome) return outcome.exit
  io.stdout.write(`${outcome.print}\n`)
  return 0
}

/** The command as `ask-user-askpass` runs it: the real parent and clock. */
export const run: Command = (args, io) => askpassCommand({ ppid: process.ppid, now: Date.now })(args, io)
