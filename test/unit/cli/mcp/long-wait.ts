// Shared by the client-timeout tests: the question asked, its answer, and how long the person takes.

/** The client's per-call timeout these tests configure, in seconds. */
export const CLIENT_TIMEOUT_S = 3

/** The question the stand-in model asks through `ask_user_question`. */
export const question = {
  id: 'pkg',
  question: 'Which package manager?',
  options: [{ label: 'pnpm' }, { label: 'npm' }],
}

/** The tool result text `ask-user mcp` returns for the answer "pnpm". */
export const answerText = '{"answers":[{"id":"pkg","selected":["pnpm"]}]}'

/** How long the person takes: well past the client's timeout. */
export const ANSWER_AFTER_MS = CLIENT_TIMEOUT_S * 1000 * 2 + 500

/** Resolves after `ms`, or rejects at once if `run` ends first (the client gave up early). */
export function outlive(run: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // The wait under test is the passing of time itself: the client's timeout must elapse.
    const timer = setTimeout(resolve, ms)
    run.then(
      (value) => (clearTimeout(timer), reject(new Error(`ended before the answer: ${JSON.stringify(value)}`))),
      (error: unknown) => (clearTimeout(timer), reject(error instanceof Error ? error : new Error(String(error)))),
    )
  })
}
