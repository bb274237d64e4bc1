// Whether the App runs over the relay (the phone app) rather than at a companion: set once by App, read
// by the few components deep in a card whose words differ there (where a password is allowed, say).
import { getContext, setContext } from 'svelte'

const KEY = Symbol('over-relay')

/** Called by App during its initialisation with a reader of its `overRelay` prop. */
export function provideOverRelay(overRelay: () => boolean): void {
  setContext(KEY, overRelay)
}

/** True inside an App that runs over the relay; false elsewhere, also where no App provided it. */
export function isOverRelay(): boolean {
  return getContext<(() => boolean) | undefined>(KEY)?.() ?? false
}
