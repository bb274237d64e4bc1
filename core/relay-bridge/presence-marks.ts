// The relay desk's presence marks carried to the windows: while an agent's presence has lapsed, each of
// its listed remote asks has `origin.unreachableSince` (its last contact); when the agent is back the
// field goes. The asks stay pending and answerable throughout: a lapse settles nothing (issue 32).
import type { AskOrigin } from '../../shared/ask'
import type { PresenceChange, RelayDesk } from '../../relay/exchange'
import type { Registry } from '../registry'

/** The origin of a remote ask with `unreachableSince` set (a number) or removed (`undefined`). */
export function withPresence(origin: AskOrigin, unreachableSince: number | undefined): AskOrigin {
  const { unreachableSince: _previous, ...rest } = origin
  return unreachableSince === undefined ? rest : { ...rest, unreachableSince }
}

/**
 * Follows `desk`'s presence changes: every pending remote ask of the changed agent (its roster name,
 * as `listedAgent` tells for a registry askId) gets its origin updated through the registry, which
 * tells the windows (`ask/origin`). Returns the unsubscribe function.
 */
export function followPresence(
  desk: Pick<RelayDesk, 'onPresence'>,
  registry: Pick<Registry, 'pending' | 'setOrigin'>,
  listed: () => Iterable<string>,
): () => void {
  return desk.onPresence((change: PresenceChange) => {
    const ids = new Set(listed())
    for (const ask of registry.pending()) {
      if (!ids.has(ask.askId) || ask.origin === undefined) continue
      if (ask.agent.name !== change.agent) continue
      if (ask.origin.unreachableSince === change.unreachableSince) continue
      registry.setOrigin(ask.askId, withPresence(ask.origin, change.unreachableSince))
    }
  })
}

/** `input` (a remote ask about to be listed) with its agent's current mark, if `desk` has one. */
export function withCurrentPresence<T extends { agent: { name: string }; origin?: AskOrigin }>(
  input: T,
  desk: Pick<RelayDesk, 'unreachableSince'> | undefined,
): T {
  const since = desk?.unreachableSince(input.agent.name)
  return since === undefined || input.origin === undefined
    ? input
    : { ...input, origin: withPresence(input.origin, since) }
}
