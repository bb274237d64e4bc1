// Which remote agents this desk answers secret asks (passwords) for: `ask-user relay passwords allow|deny`.
// A per-desk choice kept 0600 in the companion's 0700 home. Agents are kept by roster member id (an id
// names exactly one key), with the roster's name for listing. An agent may also be allowed on phones
// (paired devices): that part reaches each phone named as a record sealed to it (device-passwords.ts).
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../core/private-files'
import { verifyRoster, type Member, type Roster } from '../crypto'
import { publishDevicePasswords } from './device-passwords'
import { RelayHomeError } from './errors'
import { loadRosterAndSettings, readJsonFile } from './state'

/** The file in the companion's home (0600). */
export const REMOTE_PASSWORDS_FILE = 'relay-remote-passwords.json'

const NamedMemberSchema = z.strictObject({ id: z.string().min(1), name: z.string().min(1) })

/** The agents allowed remote passwords on this desk, each by roster id and name, with when it was allowed. */
export const RemotePasswordsSchema = z.strictObject({
  v: z.literal(1),
  agents: z.array(
    z.strictObject({
      id: z.string().min(1),
      name: z.string().min(1),
      allowedAt: z.int().min(0),
      /** The paired devices (phones) that may answer this agent's passwords too, by roster id and name. */
      devices: z.array(NamedMemberSchema).optional(),
      /**
       * Set by `--phones` (every paired device): a standing rule, so a device paired later may answer them
       * too (its record is written when it is paired, and at the next start: restore-device-passwords.ts).
       */
      everyDevice: z.literal(true).optional(),
    }),
  ),
  /** The version of the device records this desk wrote last (each device refuses an older one). */
  devicesVersion: z.int().min(1).optional(),
})
export type RemotePasswords = z.infer<typeof RemotePasswordsSchema>
type AllowedAgent = RemotePasswords['agents'][number]

const NONE: RemotePasswords = { v: 1, agents: [] }

/** Where besides this desk a change applies: one paired device by its roster name, or every one. */
export type PasswordDevices = { name: string } | 'every-device'

/**
 * The stored setting; an absent file means no agent is allowed. A damaged file is `RELAY_BAD_STATE`
 * (the bridge then allows nobody: a broken setting never opens the way for a password).
 */
export async function loadRemotePasswords(home: string): Promise<RemotePasswords> {
  const stored = await readJsonFile(
    home,
    REMOTE_PASSWORDS_FILE,
    RemotePasswordsSchema,
    `${REMOTE_PASSWORDS_FILE} in the companion's home is damaged; delete it and allow the agents again.`,
  )
  return stored ?? NONE
}

/**
 * Allows (`allow: true`) or stops allowing remote passwords for the agent called `name` in the roster this
 * home holds, verified against the pinned root key. Without `devices` the change is this desk's: allowing
 * keeps the devices already allowed, stopping stops it everywhere. With `devices`, allowing allows this desk
 * and those devices; stopping stops only those devices. Every device whose list changed gets its record
 * rewritten on the relay first (this desk must be a desktop of the roster, with its relay reachable), and
 * the file is written after, so a failed publish changes nothing. Resolves the agent and whether anything
 * changed. Throws `RELAY_NO_SUCH_AGENT` / `RELAY_NO_SUCH_DEVICE` for a name the roster does not list as
 * one, the roster's refusals (`ROSTER_*`), `RELAY_NOT_INITIALIZED`, and the desktop link's codes and
 * connection errors when a device record is written.
 */
export async function setRemotePasswords(
  home: string,
  name: string,
  allow: boolean,
  now: () => number = Date.now,
  devices?: PasswordDevices,
): Promise<{ agent: Member; changed: boolean }> {
  const { roster: stored, settings } = await loadRosterAndSettings(home)
  const roster = await verifyRoster(stored.bytes, stored.signature, settings.rootPublicKey, {
    highestSeenVersion: 0,
    now: now(),
  })
  const agent = roster.members.find((member) => member.name === name && member.role === 'agent')
  if (agent === undefined)
    throw new RelayHomeError(
      'RELAY_NO_SUCH_AGENT',
      `The roster lists no agent called "${name}"; run \`ask-user relay devices\` for the names (on a paired device, \`ask-user relay renew\` first fetches the newest roster).`,
    )
  const named = devices === undefined ? [] : devicesNamed(roster, devices)
  const current = await loadRemotePasswords(home)
  // An agent allowed on every paired device stands for each device the roster lists now.
  const paired = roster.members.filter((member) => member.role === 'device')
  const kept = current.agents.find((entry) => entry.id === agent.id)
  const before = kept?.everyDevice ? withDevices(kept, paired.map(namedMember), true) : kept
  const after = nextEntry(before, {
    agent,
    allow,
    devices: devices === undefined ? undefined : named,
    everyDevice: devices === 'every-device',
    now,
  })
  const touched = changedDevices(before, after)
  if (sameEntry(kept, after) && touched.length === 0) return { agent, changed: false }
  const agents = [...current.agents.filter((entry) => entry.id !== agent.id), ...(after ? [after] : [])]
  let next: RemotePasswords = {
    v: 1,
    agents,
    ...(current.devicesVersion ? { devicesVersion: current.devicesVersion } : {}),
  }
  if (touched.length > 0) {
    const version = (current.devicesVersion ?? 0) + 1
    next = { ...next, devicesVersion: version }
    await publishDevicePasswords(home, roster, touched, version, agentsAllowedOn(next), now)
  }
  await writeFileAtomic(
    join(home, REMOTE_PASSWORDS_FILE),
    `${JSON.stringify(RemotePasswordsSchema.parse(next), null, 2)}\n`,
  )
  return { agent, changed: true }
}

/** For each device id (a device of the roster), the agent ids allowed on it in `setting`. */
export function agentsAllowedOn(setting: RemotePasswords): (deviceId: string) => string[] {
  return (deviceId) =>
    setting.agents
      .filter((entry) => entry.everyDevice === true || entry.devices?.some((device) => device.id === deviceId))
      .map((entry) => entry.id)
}

function devicesNamed(roster: Roster, devices: PasswordDevices): Member[] {
  const paired = roster.members.filter((member) => member.role === 'device')
  const found = devices === 'every-device' ? paired : paired.filter((member) => member.name === devices.name)
  if (found.length === 0)
    throw new RelayHomeError(
      'RELAY_NO_SUCH_DEVICE',
      devices === 'every-device'
        ? 'No phone or other device is paired; pair one first (`ask-user relay pair --phone`, or "Add a phone" in the Relay view).'
        : `The roster lists no paired device called "${devices.name}"; run \`ask-user relay devices\` for the names.`,
    )
  return found
}

// `everyDevice`: the change was made with `--phones` (every paired device). Allowing so sets the standing
// rule; stopping any device's access lifts it (it no longer holds for every device).
function nextEntry(
  before: AllowedAgent | undefined,
  change: { agent: Member; allow: boolean; devices: Member[] | undefined; everyDevice: boolean; now: () => number },
): AllowedAgent | undefined {
  const { agent, allow, devices } = change
  if (!allow) {
    if (devices === undefined || before === undefined) return undefined
    const left = (before.devices ?? []).filter((device) => !devices.some((gone) => gone.id === device.id))
    return withDevices(before, left, false)
  }
  const base = before ?? { id: agent.id, name: agent.name, allowedAt: change.now() }
  const kept = base.devices ?? []
  const added = (devices ?? []).filter((device) => !kept.some((known) => known.id === device.id))
  const devicesAfter = [...kept, ...added.map((device) => ({ id: device.id, name: device.name }))]
  return withDevices(base, devicesAfter, change.everyDevice || base.everyDevice === true)
}

const namedMember = (member: Member): { id: string; name: string } => ({ id: member.id, name: member.name })

function withDevices(entry: AllowedAgent, devices: { id: string; name: string }[], everyDevice: boolean): AllowedAgent {
  const { devices: _old, everyDevice: _rule, ...rest } = entry
  return {
    ...rest,
    ...(devices.length === 0 ? {} : { devices }),
    ...(everyDevice ? { everyDevice: true as const } : {}),
  }
}

/** The device ids whose allowed agents differ between `before` and `after` (one agent's entry). */
function changedDevices(before: AllowedAgent | undefined, after: AllowedAgent | undefined): string[] {
  const had = new Set((before?.devices ?? []).map((device) => device.id))
  const has = new Set((after?.devices ?? []).map((device) => device.id))
  return [...new Set([...had, ...has])].filter((id) => had.has(id) !== has.has(id))
}

function sameEntry(before: AllowedAgent | undefined, after: AllowedAgent | undefined): boolean {
  return (before === undefined) === (after === undefined) && before?.everyDevice === after?.everyDevice
}
