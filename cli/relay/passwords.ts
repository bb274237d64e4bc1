// `ask-user relay passwords allow NAME [--on DEVICE | --phones] | deny NAME [--on DEVICE | --phones] | list`:
// which remote agents this desk, and which of the person's phones, answer secret asks (passwords) for.
// This desk's part is its own file (relay/home/remote-passwords.ts): a running companion picks the change
// up at once, for the asks already on screen too. A phone's part is a record the desktop seals to that
// phone on the relay (relay/home/passwords-record.ts), rewritten at once, on and off.
import { parseArgs } from 'node:util'
import { resolveHome } from '../../core/home'
import { loadRemotePasswords, setRemotePasswords, type PasswordDevices } from '../../relay/home/remote-passwords'
import { EXIT, printError, type CliIo } from '../io'

const USAGE =
  'relay passwords needs `allow NAME`, `deny NAME` (either with `--on DEVICE` for one paired phone or `--phones` for every paired device) or `list` (NAME, DEVICE: as `ask-user relay devices` lists them)'

/** Runs `relay passwords …` with the arguments after `passwords`; returns the exit code. */
export async function runPasswords(args: string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { on: { type: 'string' }, phones: { type: 'boolean' } },
  })
  const [action, name, ...extra] = positionals
  const home = resolveHome(io.env)
  const where = values.on !== undefined || values.phones === true
  if (action === 'list' && name === undefined && !where) {
    const { agents } = await loadRemotePasswords(home)
    if (agents.length === 0) io.stderr.write('No agent may ask for passwords through the relay on this desk.\n')
    for (const agent of agents) {
      const phones = agent.everyDevice
        ? 'every paired device, and any paired later'
        : agent.devices?.map((device) => device.name).join(', ')
      const allowedAt = new Date(agent.allowedAt).toISOString().slice(0, 16).replace('T', ' ')
      io.stdout.write(`${agent.name}\tallowed ${allowedAt}${phones ? `\talso on ${phones}` : ''}\n`)
    }
    return EXIT.OK
  }
  const both = values.on !== undefined && values.phones === true
  if ((action !== 'allow' && action !== 'deny') || name === undefined || extra.length > 0 || both) {
    printError(io, USAGE)
    return EXIT.INVALID_INPUT
  }
  const devices: PasswordDevices | undefined =
    values.on !== undefined ? { name: values.on } : values.phones === true ? 'every-device' : undefined
  const { changed } = await setRemotePasswords(home, name, action === 'allow', Date.now, devices)
  const on =
    devices === undefined
      ? ''
      : devices === 'every-device'
        ? 'every paired device (and any paired later)'
        : `"${devices.name}"`
  const state =
    action === 'allow'
      ? on === ''
        ? `This desk may now answer password questions of "${name}" through the relay; the answer is sealed to the agent alone.`
        : `This desk and ${on} may now answer password questions of "${name}" through the relay; the answer is sealed to the agent alone.`
      : on === ''
        ? `Neither this desk nor any phone answers password questions of "${name}" through the relay any more.`
        : `${devices === 'every-device' ? 'No paired device' : on} no longer answers password questions of "${name}"; this desk's own setting is unchanged.`
  io.stderr.write(`${changed ? state : `Nothing changed: ${state}`}\n`)
  return EXIT.OK
}
