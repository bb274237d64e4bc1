// The key of the phone's pairing link fragment (`<appUrl>#pair=<offer>`), alone in its module: the
// phone's entry takes such a fragment out of the URL before anything else, without loading the offer's
// schemas (a paired phone's first screen never needs them).

/** The fragment key of the phone's pairing link: `<appUrl>#pair=<offer>`. */
export const PAIR_FRAGMENT_KEY = 'pair'
