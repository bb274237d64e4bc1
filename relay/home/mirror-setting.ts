// The desk setting "mirror local asks": whether the companion writes its local agents' non-secret
// questions to the relay so the person's other desks can answer them (core/relay-bridge/mirror.ts).
// Off unless set; kept 0600 in the companion's home, written by `ask-user relay mirror on|off`, and read
// by the running companion at every new local ask, so a change applies from the next ask on.
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../core/private-files'
import { RelayHomeError } from './errors'
import { readJsonFile, relayRole } from './state'

/** The setting's file in the companion's home. */
export const MIRROR_FILE = 'relay-mirror.json'

/** The stored setting (version 1). */
export const MirrorSettingSchema = z.strictObject({
  v: z.literal(1),
  mirrorLocalAsks: z.boolean(),
})
export type MirrorSetting = z.infer<typeof MirrorSettingSchema>

/**
 * Whether `home` mirrors local asks. An absent file is off; a damaged one is `RELAY_BAD_STATE` (the
 * running companion then mirrors nothing and says so).
 */
export async function mirrorLocalAsks(home: string): Promise<boolean> {
  const setting = await readJsonFile(
    home,
    MIRROR_FILE,
    MirrorSettingSchema,
    `${MIRROR_FILE} in the companion's home is damaged; run \`ask-user relay mirror on\` or \`off\` to write it again.`,
  )
  return setting?.mirrorLocalAsks ?? false
}

/**
 * Turns mirroring on or off in `home`. Only the first desktop mirrors (its credential alone may write
 * questions under its own name): elsewhere `RELAY_MIRROR_NEEDS_DESKTOP`, or `RELAY_NOT_INITIALIZED`
 * without a relay.
 */
export async function setMirrorLocalAsks(home: string, on: boolean): Promise<void> {
  const role = await relayRole(home)
  if (role === 'none')
    throw new RelayHomeError(
      'RELAY_NOT_INITIALIZED',
      "No relay is set up in this companion's home; run `ask-user relay init --self-hosted DIR` first.",
    )
  if (role !== 'desktop')
    throw new RelayHomeError(
      'RELAY_MIRROR_NEEDS_DESKTOP',
      'Only the first desktop (where `ask-user relay init` ran) can mirror its local asks; a paired device answers them.',
    )
  const setting: MirrorSetting = { v: 1, mirrorLocalAsks: on }
  await writeFileAtomic(join(home, MIRROR_FILE), `${JSON.stringify(setting, null, 2)}\n`)
}
