// `ask-user relay passwords allow NAME | deny NAME | list`: which remote agents this desk answers
// secret asks (passwords) for. The setting is this desk's alone (relay/home/remote-passwords.ts); a
// running companion picks the change up at once, for the asks already on screen too.
import { parseArgs } from 'node:util'
import { resolveHome } from '../../core/home'
import { loadRemotePasswords, setRemotePasswords } from '../../relay/home/remote-passwords'
import { EXIT, printError, type CliIo } from '../io'

const USAGE = 'relay passwords needs `allow NAME`, `deny NAME` or `list` (NAME: an agent of `ask-user relay devices`)'

/** Runs `relay passwords …` with the arguments after `passwords`; returns the exit code. */
export async function runPasswords(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} })
  const [action, name, ...extra] = positionals
  const home = resolveHome(io.env)
  if (action === 'list' && name === undefined) {
    const { agents } = await loadRemotePasswords(home)
    if (agents.length === 0) io.stderr.write('No agent may ask for passwords through the relay on this desk.\n')
    for (const agent of agents)
      io.stdout.write(
        `${agent.name}\tallowed ${new Date(agent.allowedAt).toISOString().slice(0, 16).replace('T', ' ')}\n`,
      )
    return EXIT.OK
  }
  if ((action !== 'allow' && action !== 'deny') || name === undefined || extra.length > 0) {
    printError(io, USAGE)
    return EXIT.INVALID_INPUT
  }
  const { changed } = await setRemotePasswords(home, name, action === 'allow')
  const state =
    action === 'allow'
      ? `This desk may now answer password questions of "${name}" through the relay; the answer is sealed to the agent alone.`
      : `This desk no longer answers password questions of "${name}" through the relay.`
  io.stderr.write(`${changed ? state : `Nothing changed: ${state}`}\n`)
  return EXIT.OK
}
