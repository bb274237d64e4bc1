// `ask-user relay mirror on|off|status`: the desk setting "mirror local asks" (relay/home/mirror-setting.ts).
import { parseArgs } from 'node:util'
import { resolveHome } from '../../core/home'
import { mirrorLocalAsks, setMirrorLocalAsks } from '../../relay/home/mirror-setting'
import { relayRole } from '../../relay/home/state'
import { EXIT, printError, type CliIo } from '../io'

/** What `status` prints for each state (one line on stdout; scripts may read the first word). */
export const MIRROR_STATUS = {
  on: 'on: new non-secret questions of local agents are mirrored to the relay; the other desks can answer them',
  off: 'off: local asks stay on this desktop',
} as const

/**
 * Runs `relay mirror on|off|status`. `on`/`off` store the setting (the running companion applies it
 * from the next local ask); `status` prints it. Wrong usage exits with INVALID_INPUT.
 */
export async function runMirror(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} })
  const [action] = positionals
  if (positionals.length !== 1 || (action !== 'on' && action !== 'off' && action !== 'status')) {
    printError(io, 'relay mirror needs exactly one of on, off or status')
    return EXIT.INVALID_INPUT
  }
  const home = resolveHome(io.env)
  if (action === 'status') {
    const on = (await relayRole(home)) === 'desktop' && (await mirrorLocalAsks(home))
    io.stdout.write(`${on ? MIRROR_STATUS.on : MIRROR_STATUS.off}\n`)
    return EXIT.OK
  }
  await setMirrorLocalAsks(home, action === 'on')
  io.stdout.write(`${action === 'on' ? MIRROR_STATUS.on : MIRROR_STATUS.off}\n`)
  io.stderr.write('A running companion applies this from the next local ask on.\n')
  return EXIT.OK
}
