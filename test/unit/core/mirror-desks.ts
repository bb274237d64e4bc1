// The setup of the mirror tests, as a person makes it: `relay init` on the first desktop A (a real
// nats-server in operator mode), `relay pair` + `relay join` of desk B ("laptop-b"), both companions
// started with a window each. Mirroring stays off: each test file turns it on when it needs it.
import { main } from '../../../cli/main'
import { loadOwnMember } from '../../../relay/home/state'
import type { Ask } from '../../../shared/ask'
import type { Limits } from '../../../shared/limits'
import { DEFAULT_SETTINGS } from '../../../shared/settings'
import type { UiServerFrame } from '../../../shared/ui'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import type { RunningNatsServer } from '../../helpers/nats-server'
import { openV2Window, type V2Window } from '../../helpers/ui-v2-window'
import { memoryIo } from '../cli/memory-io'
import { setUpRelayDesks } from './relay-desks'

export const MIRROR_WAIT = 20_000

type AddedFrame = Extract<UiServerFrame, { type: 'ask/added' }>
type SettledFrame = Extract<UiServerFrame, { type: 'ask/settled' }>
type ReplyFrame = Extract<UiServerFrame, { type: 'ask/accepted' | 'ask/rejected' }>

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
  const deskA = await startTestCompanion({
    home: homeA,
    settings: { limits: { ...DEFAULT_SETTINGS.limits, ...limitsA } },
  })
  const deskB = await startTestCompanion({ home: homeB })
  await Promise.all([deskA.companion.relayReady, deskB.companion.relayReady])
  const windowA = await openV2Window(deskA.companion)
  const windowB = await openV2Window(deskB.companion)
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

/** The ask a window is shown with `title`. */
export const addedTo = (window: V2Window, title: string): Promise<Ask> =>
  window.frames
    .next<AddedFrame>((f) => f.type === 'ask/added' && f.ask.title === title, MIRROR_WAIT)
    .then((frame) => frame.ask)

/** How a window is told `askId` settled. */
export const settledIn = (window: V2Window, askId: string): Promise<SettledFrame> =>
  window.frames.next<SettledFrame>((f) => f.type === 'ask/settled' && f.askId === askId, MIRROR_WAIT)

/** The reply to a window's answer to `askId`. */
export const replyTo = (window: V2Window, askId: string): Promise<ReplyFrame> =>
  window.frames.next<ReplyFrame>(
    (f) => (f.type === 'ask/accepted' || f.type === 'ask/rejected') && f.askId === askId,
    MIRROR_WAIT * 2,
  )
