// The one shape of every refusal in relay/: a stable UPPER_SNAKE `code` that callers, tests and the UI
// match on, and a message that says what happened and what to do. Each folder keeps its own code union,
// class name and guard (relay/*/errors.ts); this file holds what they share.

/**
 * A refusal of the relay code. `code` is stable; `message` is for the person and never carries a seed,
 * a key, a credential or an ask's plaintext. Subclasses set `name` and may prefix the message.
 */
export abstract class RelayCodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * The `is…` guard of one subclass: true when a value is an instance of `kind` with `code` (or any code
 * when `code` is omitted).
 */
export function codedErrorGuard<E extends RelayCodedError<string>>(
  kind: abstract new (...args: never[]) => E,
): (value: unknown, code?: E['code']) => value is E {
  return (value: unknown, code?: E['code']): value is E =>
    value instanceof kind && (code === undefined || value.code === code)
}
