// A running desktop keeps its "allow on every paired device" rules (`relay passwords allow NAME --phones`)
// for phones paired elsewhere: another desktop pairs a phone, the roster listing it arrives here, and this
// desk writes the phone's password record at once (the same repair a start does: restore-device-passwords.ts),
// rather than at its own next start or renewal. A phone paired on this desk got it at pairing already.
import { describeRelayError } from '../../relay/home/errors'
import { restoreDevicePasswords } from '../../relay/home/restore-device-passwords'

type Writer = Parameters<typeof restoreDevicePasswords>[1]
type Roster = Parameters<typeof restoreDevicePasswords>[2]

/**
 * Returns the listener for every roster the desk accepts: each one newer than `afterVersion` (the roster
 * the start already repaired) runs the repair as this desktop over `nc`, one at a time. Failures are warnings.
 */
export function keepStandingPasswordRules(
  home: string,
  writer: Writer,
  afterVersion: number,
  warn: (message: string) => void,
): (roster: Roster) => void {
  let done = afterVersion
  let running = Promise.resolve()
  return (roster) => {
    if (roster.version <= done) return
    done = roster.version
    running = running.then(() =>
      restoreDevicePasswords(home, writer, roster).then(
        () => undefined,
        (error: unknown) => warn(`password records: ${describeRelayError(error)}`),
      ),
    )
  }
}
