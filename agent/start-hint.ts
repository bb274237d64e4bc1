/** How to get a companion running; appended to every "no companion" message (zod-free: the lean hook names it too). */
export const START_HINT = 'start the Ask User Companion app, or run `ask-user serve`'
