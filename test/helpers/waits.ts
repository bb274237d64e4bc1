// How long a test waits for something that should come. `npm test` must pass on a busy machine (the
// documented check runs `stress-ng --cpu 6` beside it on 2 cores), so a wait for a frame, a card or a
// process's output is bounded generously: the bound only decides how long a real failure takes to show.
// A wait that must NOT see something (the behaviour under test is a silence) sets its own short bound.

/** The default bound of the helpers' waits (ui-client, frame-queue, raw-agent's `poll`). */
export const WAIT_MS = 20_000

/** The bound for a card brought by a real program started as another user (sudo, ssh: PAM, key exchange). */
export const REAL_PROGRAM_WAIT_MS = 45_000
