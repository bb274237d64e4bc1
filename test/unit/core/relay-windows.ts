// Test helper for the core's relay tests: two desks' companions started on their homes with a UI v2 window
// each, and the waits on those windows (an ask shown, settled, the reply to an answer), with one deadline.
import type { Ask } from '../../../shared/ask'
import type { Limits } from '../../../shared/limits'
import { DEFAULT_SETTINGS } from '../../../shared/settings'
import type { UiServerFrame } from '../../../shared/ui'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { openV2Window, type V2Window } from '../../helpers/ui-v2-window'

/** How long a relay test waits for a window to be told something (the machine is loaded). */
export const RELAY_WAIT = 20_000

type AddedFrame = Extract<UiServerFrame, { type: 'ask/added' }>
type SettledFrame = Extract<UiServerFrame, { type: 'ask/settled' }>
type ReplyFrame = Extract<UiServerFrame, { type: 'ask/accepted' | 'ask/rejected' }>

/** Two desks' companions, each with its relay bridge ready and a window open. */
export interface DeskCompanions {
  deskA: TestCompanion
  deskB: TestCompanion
  windowA: V2Window
  windowB: V2Window
}

/** Starts a companion on `homeA` (with `limitsA` over the default caps) and on `homeB`, and a window on each. */
export async function startDeskCompanions(
  homeA: string,
  homeB: string,
  limitsA: Partial<Limits> = {},
): Promise<DeskCompanions> {
  const deskA = await startTestCompanion({
    home: homeA,
    settings: { limits: { ...DEFAULT_SETTINGS.limits, ...limitsA } },
  })
  const deskB = await startTestCompanion({ home: homeB })
  await Promise.all([deskA.companion.relayReady, deskB.companion.relayReady])
  return { deskA, deskB, windowA: await openV2Window(deskA.companion), windowB: await openV2Window(deskB.companion) }
}

/** The ask a window is shown with `title` (and that `pick` accepts). */
export const addedTo = (window: V2Window, title: string, pick: (ask: Ask) => boolean = () => true): Promise<Ask> =>
  window.frames
    .next<AddedFrame>((f) => f.type === 'ask/added' && f.ask.title === title && pick(f.ask), RELAY_WAIT)
    .then((frame) => frame.ask)

/** How a window is told `askId` settled. */
export const settledIn = (window: V2Window, askId: string): Promise<SettledFrame> =>
  window.frames.next<SettledFrame>((f) => f.type === 'ask/settled' && f.askId === askId, RELAY_WAIT)

/** The reply to a window's answer to `askId`. */
export const replyTo = (window: V2Window, askId: string): Promise<ReplyFrame> =>
  window.frames.next<ReplyFrame>(
    (f) => (f.type === 'ask/accepted' || f.type === 'ask/rejected') && f.askId === askId,
    RELAY_WAIT * 2,
  )
