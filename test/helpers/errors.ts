import { expect } from 'vitest'
import { AskUserError } from '../../shared/error-codes'

/** Awaits a promise that must reject with an {@link AskUserError} and returns that error. */
export async function failure(promise: Promise<unknown>): Promise<AskUserError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AskUserError)
  return error as AskUserError
}
