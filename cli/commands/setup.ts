import { parseArgs } from 'node:util'
import { connectInfo, resolveHome } from '../../core'
import { connectBlocks, hookGroup } from '../../shared/connect'
import { errorMessage } from '../../shared/describe-error'
import { isSetupClient, setupPlan, SETUP_CLIENTS } from '../../shared/setup-plan'
import { HOOK_CLIENTS, hookNotes, hookSteps, isHookClient } from '../../shared/setup-hooks'
import type { Command } from '../io'
import { EXIT, printError } from '../io'
import { applyPlan } from '../setup/apply'
import { installedScript } from './serve'
import { runAskpassSetup } from './setup-askpass'

const HELP = `Usage: ask-user setup <client> [--hooks] [--print] [--remove]
       ask-user setup <client> --askpass [--print] [--remove]   (claude-code, codex)
       ask-user setup shell --askpass [--write] [--remove]

Adds this install's ask-user as an MCP server to a client's user-level configuration, so that agents
in every project can ask you: ${SETUP_CLIENTS.join(', ')}.
It runs the client's own \`mcp add\` where the client has one (which must then be on PATH) and edits
its config file for what that command cannot set: the companion's ASK_USER_HOME, a day of tool
timeout, and the allow-list or trust entry that spares a prompt on every question. It uses the
absolute path of this install, never npx. Running it again changes nothing; it says what it changed.

  --hooks   also answer the client's permission prompts and native questions from the inbox
            (${HOOK_CLIENTS.join(', ')}): adds \`ask-user hook <client>\` to its hooks, beside any
            hooks of yours, or for opencode writes a plugin file
  --print   show the commands and file entries, change nothing
  --remove  take the entries out again (with --hooks, the hooks too)
  --askpass route sudo's, ssh's and git's password prompts of the agent's commands to the inbox
            (SUDO_ASKPASS, SSH_ASKPASS, GIT_ASKPASS = ask-user-askpass) in the harness's environment
            setting; \`shell\` prints a shell-profile block instead (every shell, yours too), and
            writes it only with --write
`

/** `ask-user setup <client>`: writes (or with `--remove` removes, with `--print` shows) a client's set-up. */
export const run: Command = async (args, io) => {
  let parsed
  try {
    parsed = parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        print: { type: 'boolean' },
        remove: { type: 'boolean' },
        hooks: { type: 'boolean' },
        askpass: { type: 'boolean' },
        write: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    printError(io, `${errorMessage(error)}; run \`ask-user setup --help\``)
    return EXIT.INVALID_INPUT
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.OK
  }
  const [client, extra] = positionals
  if (values.askpass) return runAskpassSetup(client, extra, values, io)
  if (client === undefined || extra !== undefined || !isSetupClient(client)) {
    const what = client === undefined ? 'which client?' : extra !== undefined ? `unexpected argument "${extra}"` : `unknown client "${client}"`
    printError(io, `${what}; one of ${SETUP_CLIENTS.join(', ')}`)
    return EXIT.INVALID_INPUT
  }
  const info = connectInfo({ platform: process.platform, home: resolveHome(io.env), env: io.env, script: installedScript(), node: process.execPath })
  if (info === undefined) {
    printError(io, 'cannot tell how agents should run this ask-user (no installed script or app launcher found)')
    return 1
  }
  if (values.hooks && !isHookClient(client)) {
    printError(io, `${client} has no hooks ask-user can answer; --hooks works for ${HOOK_CLIENTS.join(', ')}`)
    return EXIT.INVALID_INPUT
  }
  const mcp = setupPlan(client, info)
  const hooks = values.hooks && isHookClient(client) ? hookSteps(client, info) : []
  const plan = { steps: [...mcp.steps, ...hooks], notes: [...mcp.notes, ...(values.hooks && isHookClient(client) ? hookNotes(client) : [])] }
  if (values.print) {
    const [, ...blocks] = connectBlocks(client, info)
    const hookText = hooks.map((step) =>
      step.kind === 'hook' ? `# ${step.file}\n${JSON.stringify({ hooks: { [step.event]: [hookGroup(step)] } }, null, 2)}` : step.kind === 'file' ? `# ${step.file}\n${step.text}` : '',
    )
    const text = [...blocks.map((block) => (block.file ? `# ${block.file}\n${block.text}` : block.text)), ...hookText]
    io.stdout.write(`${[...text, ...plan.notes.map((note) => `# ${note}`)].join('\n\n')}\n`)
    return EXIT.OK
  }
  try {
    const changes = await applyPlan(plan, values.remove ? 'remove' : 'add', { env: io.env, cwd: io.cwd })
    io.stdout.write(`${[...changes, ...(values.remove ? [] : plan.notes.map((note) => `note: ${note}`))].join('\n')}\n`)
    return EXIT.OK
  } catch (error) {
    printError(io, errorMessage(error))
    return 1
  }
}
