// The code of the PushSetupError that turning on notifications stopped with (shell.test.ts,
// push-subscribe.test.ts); fails the test when it resolved or threw anything else.
import { expect } from 'vitest'
import { PushSetupError } from '../../../phone/src/shell/push-subscribe'

export async function pushSetupCode(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(PushSetupError)
  return (error as PushSetupError).code
}
