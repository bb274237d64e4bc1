// The setup of the mirror tests, as a person makes it: `relay init` on the first desktop A (a real
// nats-server in operator mode), `relay pair` + `relay join` of desk B ("laptop-b"), both companions
// started with a window each. Mirroring stays off: each test file turns it on when it needs it.
import { main } from '../../../cli/main'
import { loadOwnMember } from '../../../relay/home/state'
import type { Limits } from '../../../shared/limits'
import type { TestCompanion } from '../../helpers/companion'
import type { RunningNatsServer } from '../../helpers/nats-server'
import type { V2Window } from '../../helpers/ui-v2-window'
import { memoryIo } from '../cli/memory-io'
import { setUpRelayDesks } from './relay-desks'
import { startDeskCompanions } from './relay-windows'

/** Two paired desks on one relay, each with a companion and a window. */
export interface MirrorDesks {
  root: string
  homeA: string
  homeB: string
  relayUrl: string
  server: RunningNatsServer
  deskA: TestCompanion
  deskB: TestCompanion
  windowA: V2Window
  windowB: V2Window
  /** Desk A's roster name and member id (its relay keys go under the id). */
  deskAName: string
  deskAId: string
  /** Stops everything (the server may be stopped already) and deletes `root`. */
  close: () => Promise<void>
}

/** Sets up {@link MirrorDesks} in a new temp folder named by `prefix`; `limitsA` are desk A's caps over the defaults. */
export async function startMirrorDesks(prefix: string, limitsA: Partial<Limits> = {}): Promise<MirrorDesks> {
  const relay = await setUpRelayDesks(prefix, [])
  const { root, homeA, homeB, relayUrl, server } = relay
  const member = (await loadOwnMember(homeA, 'desktop')).member
  const { deskA, deskB, windowA, windowB } = await startDeskCompanions(homeA, homeB, limitsA)
  return {
    root,
    homeA,
    homeB,
    relayUrl,
    server,
    deskA,
    deskB,
    windowA,
    windowB,
    deskAName: member.name,
    deskAId: member.id,
    close: async () => {
      await windowA.close()
      await windowB.close()
      await deskA.cleanup()
      await deskB.cleanup()
      await relay.close()
    },
  }
}

/** Runs `ask-user relay mirror <action>` in `home`. */
export async function mirrorCommand(action: string, home: string): Promise<{ code: number; out: string }> {
  const io = memoryIo({ ASK_USER_HOME: home })
  const code = await main(['relay', 'mirror', action], io)
  return { code, out: io.out() + io.err() }
}
