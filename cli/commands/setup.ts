import { parseArgs } from 'node:util'
import { connectInfo, resolveHome } from '../../core'
import { planBlocks } from '../../integrations/connect-blocks'
import { hookCommand } from '../../integrations/hook-command'
import { HARNESS_IDS, HOOK_HARNESS_IDS, isHarnessId, isHookHarnessId, type HookHarnessId } from '../../integrations/ids'
import { ASKPASS_HARNESSES, HARNESS_BY_ID, hooksOf } from '../../integrations/index'
import type { SetupPlan } from '../../integrations/setup-steps'
import type { ConnectInfo } from '../../shared/connect'
import { errorMessage } from '../../shared/describe-error'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { applyPlan } from '../setup/apply'
import { argumentError } from '../argument-error'
import { installedScript } from './serve'
import { runAskpassSetup } from './setup-askpass'

const HELP = `Usage: ask-user setup <client> [--hooks] [--print] [--remove]
       ask-user setup <client> --askpass [--print] [--remove]   (${ASKPASS_HARNESSES.map((harness) => harness.id).join(', ')})
       ask-user setup shell --askpass [--write] [--remove]

Adds this install's ask-user as an MCP server to a client's user-level configuration, so that agents
in every project can ask you: ${HARNESS_IDS.join(', ')}.
It runs the client's own \`mcp add\` where the client has one (which must then be on PATH) and edits
its config file for what that command cannot set: the companion's ASK_USER_HOME, a day of tool
timeout, and the allow-list or trust entry that spares a prompt on every question. It uses the
absolute path of this install, never npx. Running it again changes nothing; it says what it changed.

  --hooks   also answer the client's permission prompts and native questions from the inbox
            (${HOOK_HARNESS_IDS.join(', ')}): adds \`ask-user hook <client>\` to its hooks, beside any
            hooks of yours, or for opencode writes a plugin file
  --print   show the commands and file entries (one block per file), change nothing
  --remove  take the entries out again (with --hooks, the hooks too)
  --askpass route sudo's, ssh's and git's password prompts of the agent's commands to the inbox
            (SUDO_ASKPASS, SSH_ASKPASS, GIT_ASKPASS = ask-user-askpass) in the harness's environment
            setting; \`shell\` prints a shell-profile block instead (every shell, yours too), and
            writes it only with --write
`

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  print: { type: 'boolean' },
  remove: { type: 'boolean' },
  hooks: { type: 'boolean' },
  askpass: { type: 'boolean' },
  write: { type: 'boolean' },
} as const

/** `ask-user setup <client>`: writes (or with `--remove` removes, with `--print` shows) a client's set-up. */
export const run: Command = async (args, io) => {
  let parsed
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    printError(io, argumentError(error, Object.keys(OPTIONS), 'setup'))
    return EXIT.INVALID_INPUT
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  const [client, extra] = positionals
  if (values.askpass) return runAskpassSetup(client, extra, values, io)
  if (client === undefined || extra !== undefined || !isHarnessId(client)) {
    const what =
      client === undefined
        ? 'which client? One'
        : extra !== undefined
          ? `unexpected argument "${extra}"; one`
          : `unknown client "${client}"; one`
    printError(io, `${what} of ${HARNESS_IDS.join(', ')}`)
    return EXIT.INVALID_INPUT
  }
  const info = connectInfo({
    platform: process.platform,
    home: resolveHome(io.env),
    env: io.env,
    script: installedScript(),
    node: process.execPath,
  })
  if (info === undefined) {
    printError(io, 'cannot tell how agents should run this ask-user (no installed script or app launcher found)')
    return 1
  }
  if (values.hooks && !isHookHarnessId(client)) {
    printError(io, `${client} has no hooks ask-user can answer; --hooks works for ${HOOK_HARNESS_IDS.join(', ')}`)
    return EXIT.INVALID_INPUT
  }
  const mcp = HARNESS_BY_ID[client].mcp(info, { hooks: values.hooks === true })
  const hooks = values.hooks && isHookHarnessId(client) ? hookPlan(client, info) : { steps: [], notes: [] }
  const plan = { steps: [...mcp.steps, ...hooks.steps], notes: [...mcp.notes, ...hooks.notes] }
  if (values.print) {
    const text = planBlocks(plan.steps, info).map((block) =>
      block.file ? `# ${block.file}\n${block.text}` : block.text,
    )
    io.stdout.write(`${[...text, ...plan.notes.map((note) => `# ${note}`)].join('\n\n')}\n`)
    return EXIT.OK
  }
  try {
    const printCommand = `ask-user setup ${client}${values.hooks ? ' --hooks' : ''} --print`
    const changes = await applyPlan(plan, values.remove ? 'remove' : 'add', { env: io.env, cwd: io.cwd, printCommand })
    io.stdout.write(`${[...changes, ...(values.remove ? [] : plan.notes.map((note) => `note: ${note}`))].join('\n')}\n`)
    return EXIT.OK
  } catch (error) {
    printError(io, errorMessage(error))
    return 1
  }
}

/** The hook entries of `id` for this install, each running `ask-user hook <id>`, and the notes `--hooks` prints. */
function hookPlan(id: HookHarnessId, info: ConnectInfo): SetupPlan {
  const hooks = hooksOf(id)
  return { steps: hooks.steps(hookCommand(id, info)), notes: [...hooks.notes] }
}
