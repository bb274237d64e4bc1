import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { AskUserClient, MAX_TIMEOUT_MS } from '../../agent/client'
import { renderAnswer } from '../../shared/answer'
import type { Question } from '../../shared/tool-input'
import { validateAskInput, validateToolInput, type ValidatedAsk } from '../../shared/validate-input'
import { version } from '../../package.json'
import type { CliIo, Command } from '../io'
import { EXIT, printError, readAll } from '../io'
import { exitCodeFor } from './exit-codes'
import { UNCAPPED_LIMITS } from '../../shared/limits'
import { errorMessage } from '../../shared/describe-error'
import { argumentError } from '../argument-error'
import { droppedFieldsWarning, unmeantAsk, type AskSource } from '../ask-checks'

const HELP = `Usage: ask-user ask --json FILE|-  [--timeout SECONDS] [--title TEXT] [--agent NAME]
       ask-user ask [--id ID] [--header TEXT] --question TEXT [--option LABEL]... [--multi]
                    [--detail TEXT | --detail-file FILE] [--timeout SECONDS] [--title TEXT] [--agent NAME]

Asks the person through the running Ask User Companion and prints the canonical answer JSON,
{"answers":[{"id":...,"selected":[...],"custom":...}]}, on stdout.

  --json FILE|-      tool arguments {"questions":[...]} from a file, or from stdin with - (as a
                     model's: question keys other than the tool's, detail and intent too, are dropped)
  --id ID            id of the single question (default q1)
  --header TEXT      a short heading for the question
  --question TEXT    the question
  --option LABEL     an option (repeat for several; end the recommended one with "(Recommended)")
  --multi            let the person pick several options
  --detail TEXT      longer Markdown text shown below the question (a plan, for example)
  --detail-file FILE the same, read from a file (UTF-8)
  --timeout SECONDS  give up after this long (default: wait for the person)
  --title TEXT       a title shown above the questions
  --agent NAME       who asks, as the inbox names it (default ask-user); asks of one name from
                     one folder are one group

An empty question, or one option label given twice, is refused (exit 2) before any companion is
asked; fields --json drops are named in a warning on stderr.

Exit codes: 0 answered, 2 invalid input, 3 dismissed, 4 no companion (or it went away),
124 timed out, 130 interrupted. Errors go to stderr as "Error: <message>".
`

class UsageError extends Error {}

interface Parsed {
  help: boolean
  /** The questions, validated here (the command line is where they enter) and not again. */
  ask?: ValidatedAsk
  timeoutMs?: number
  title?: string
  /** `--agent`: the name the inbox shows for this script. */
  agent?: string
}

/**
 * Validates the arguments once; the companion owns the caps (its settings may raise them). `--json`
 * takes tool arguments (the tool boundary: `detail` and `intent` are dropped); the flags are ours, so
 * `--detail` passes. Then refuses what a person cannot have meant (cli/ask-checks.ts), which the tool
 * itself accepts.
 */
function validated(args: unknown, from: AskSource): ValidatedAsk {
  const check = from === 'json' ? validateToolInput(args, UNCAPPED_LIMITS) : validateAskInput(args, UNCAPPED_LIMITS)
  if (!check.ok) throw new UsageError(check.message)
  const unmeant = unmeantAsk(check.value, from)
  if (unmeant !== undefined) throw new UsageError(unmeant)
  return check.value
}

/** The text of `--detail` or `--detail-file` (never both), or undefined. */
async function detailText(values: {
  detail?: string | undefined
  'detail-file'?: string | undefined
}): Promise<string | undefined> {
  const file = values['detail-file']
  if (file === undefined) return values.detail
  if (values.detail !== undefined) throw new UsageError('--detail cannot be combined with --detail-file')
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${errorMessage(error)}`)
  }
}

const OPTIONS = {
  json: { type: 'string' },
  id: { type: 'string' },
  header: { type: 'string' },
  question: { type: 'string' },
  option: { type: 'string', multiple: true },
  multi: { type: 'boolean' },
  detail: { type: 'string' },
  'detail-file': { type: 'string' },
  timeout: { type: 'string' },
  title: { type: 'string' },
  agent: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

async function parse(args: string[], io: CliIo): Promise<Parsed> {
  let values
  try {
    ;({ values } = parseArgs({ args, strict: true, allowPositionals: false, options: OPTIONS }))
  } catch (error) {
    throw new UsageError(argumentError(error, Object.keys(OPTIONS), 'ask'))
  }
  if (values.help) return { help: true }
  const parsed: Parsed = { help: false }
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout)
    if (values.timeout.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds * 1000 > MAX_TIMEOUT_MS) {
      throw new UsageError(
        `--timeout must be a positive number of seconds, at most ${Math.floor(MAX_TIMEOUT_MS / 1000)}, got "${values.timeout}"`,
      )
    }
    parsed.timeoutMs = Math.max(1, Math.round(seconds * 1000))
  }
  if (values.title !== undefined) parsed.title = values.title
  if (values.agent !== undefined) {
    if (values.agent.trim() === '') throw new UsageError('--agent needs a name, e.g. --agent deploy-bot')
    parsed.agent = values.agent
  }
  const flagged = ['id', 'header', 'question', 'option', 'multi', 'detail', 'detail-file'].filter(
    (key) => values[key as keyof typeof values] !== undefined,
  )
  if (values.json !== undefined) {
    if (flagged.length > 0) throw new UsageError(`--json cannot be combined with --${flagged[0]}`)
    const source = values.json === '-' ? 'stdin' : values.json
    let text: string
    try {
      text = values.json === '-' ? await readAll(io.stdin) : await readFile(values.json, 'utf8')
    } catch (error) {
      throw new UsageError(`cannot read ${source}: ${errorMessage(error)}`)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new UsageError(`${source} is not valid JSON: ${errorMessage(error)}`)
    }
    parsed.ask = validated(json, 'json')
    const warning = droppedFieldsWarning(json)
    if (warning !== undefined) io.stderr.write(`Warning: ${warning}\n`)
    return parsed
  }
  if (values.question === undefined)
    throw new UsageError('--question (or --json) is required; run `ask-user ask --help`')
  const question: Question = { id: values.id ?? 'q1', question: values.question }
  if (values.header !== undefined) question.header = values.header
  if (values.option !== undefined) question.options = values.option.map((label) => ({ label }))
  if (values.multi) question.multi_select = true
  const detail = await detailText(values)
  if (detail !== undefined) question['detail'] = detail
  parsed.ask = validated({ questions: [question] }, 'flags')
  return parsed
}

/** `ask-user ask`: one ask through the companion; stdout is only the canonical JSON and a newline. */
export const run: Command = async (args, io) => {
  let parsed: Parsed
  try {
    parsed = await parse(args, io)
  } catch (error) {
    printError(io, errorMessage(error))
    return EXIT.INVALID_INPUT
  }
  if (parsed.help || parsed.ask === undefined) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  const client = new AskUserClient({ env: io.env, cwd: io.cwd, name: parsed.agent ?? 'ask-user', version })
  try {
    const answer = await client.ask(parsed.ask, {
      signal: io.signal,
      ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
      ...(parsed.title !== undefined ? { title: parsed.title } : {}),
    })
    io.stdout.write(`${renderAnswer(answer)}\n`)
    return EXIT.OK
  } catch (error) {
    printError(io, errorMessage(error))
    return exitCodeFor(error)
  } finally {
    await client.close()
  }
}
