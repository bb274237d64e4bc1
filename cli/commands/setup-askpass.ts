import { connectInfo, resolveHome } from '../../core'
import { askpassPath, askpassVariables, MEMORY_LINE, shellBlock } from '../../integrations/askpass'
import { ASKPASS_HARNESSES } from '../../integrations/index'
import { errorMessage } from '../../shared/describe-error'
import type { CliIo } from '../io'
import { EXIT, printError } from '../io'
import { applyPlan } from '../setup/apply'
import { editProfile, profileFile } from '../setup/shell-profile'
import { installedScript } from './serve'

interface Flags {
  print?: boolean | undefined
  remove?: boolean | undefined
  write?: boolean | undefined
}

/**
 * `ask-user setup <client> --askpass` and `ask-user setup shell --askpass [--write]`: the askpass
 * variables in a harness's environment setting for its agent's commands, or a shell-profile block
 * (printed; written with --write). Idempotent; --print shows, --remove takes them out.
 */
export async function runAskpassSetup(
  client: string | undefined,
  extra: string | undefined,
  flags: Flags,
  io: CliIo,
): Promise<number> {
  const targets = [...ASKPASS_HARNESSES.map((harness) => harness.id), 'shell']
  const target = client === 'shell' ? 'shell' : ASKPASS_HARNESSES.find((harness) => harness.id === client)
  if (client === undefined || extra !== undefined || target === undefined) {
    const what =
      client === undefined
        ? 'which client?'
        : extra !== undefined
          ? `unexpected argument "${extra}";`
          : `"${client}" has no environment setting for its agent's commands;`
    printError(
      io,
      `${what} --askpass works with ${targets.join(', ')} (use \`ask-user setup shell --askpass\` for any other)`,
    )
    return EXIT.INVALID_INPUT
  }
  if (process.platform === 'win32') {
    printError(io, 'askpass is for Linux and macOS; on Windows, Git Credential Manager answers git before any askpass')
    return EXIT.INVALID_INPUT
  }
  const info = connectInfo({
    platform: process.platform,
    home: resolveHome(io.env),
    env: io.env,
    script: installedScript(),
    node: process.execPath,
  })
  const helper = info && askpassPath(info)
  if (!info || !helper) {
    printError(io, "cannot find this install's ask-user-askpass (no installed script or app launcher found)")
    return 1
  }
  const variables = askpassVariables(helper, info, Boolean(io.env['DISPLAY']))
  try {
    if (target === 'shell') {
      const path = profileFile(io.env)
      if (flags.remove) return done(io, [await editProfile(path, undefined)])
      const block = shellBlock(variables)
      if (!flags.write || flags.print) {
        io.stdout.write(
          `# add to ${path} (or run again with --write); your own ssh and git prompts go to the inbox too, whenever the companion runs\n${block}\n`,
        )
        return EXIT.OK
      }
      return done(io, [
        await editProfile(path, block),
        `note: for agents that run commands in a terminal, add to the agent's memory file: ${MEMORY_LINE}`,
      ])
    }
    const plan = target.askpass(variables)
    if (flags.print) {
      const lines = plan.steps.map((step) =>
        step.kind === 'toml'
          ? `# ${step.file} [${step.table}]\n${Object.entries(step.keys)
              .map(([k, v]) => `${k} = ${v}`)
              .join('\n')}`
          : step.kind === 'json'
            ? `# ${step.file} ${step.path.join('.')} = ${JSON.stringify(step.value)}`
            : '',
      )
      io.stdout.write(`${[...lines, ...plan.notes.map((note) => `# ${note}`)].join('\n')}\n`)
      return EXIT.OK
    }
    const changes = await applyPlan(plan, flags.remove ? 'remove' : 'add', {
      env: io.env,
      cwd: io.cwd,
      printCommand: `ask-user setup ${client} --askpass --print`,
    })
    return done(io, [...changes, ...(flags.remove ? [] : plan.notes.map((note) => `note: ${note}`))])
  } catch (error) {
    printError(io, errorMessage(error))
    return 1
  }
}

function done(io: CliIo, lines: string[]): number {
  io.stdout.write(`${lines.join('\n')}\n`)
  return EXIT.OK
}
