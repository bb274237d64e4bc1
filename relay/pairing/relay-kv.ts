// The few KV operations pairing needs, done so that a credential scoped to single keys suffices: direct
// gets, the extended consumer create, and `create()` as a publish that expects the key to be new
// (RELAY.md §3.2). Runtime-neutral (nats-core types only): the phone's browser runs them over WebSocket.
import type { NatsConnection } from '@nats-io/nats-core'
import { jetstream, JetStreamApiError } from '@nats-io/jetstream'
import { Kvm, type KvEntry } from '@nats-io/kv'
import { WRONG_LAST_SEQUENCE } from '../exchange/relay-kv'

/**
 * Opens a connection to `url` as the NATS user `name` with the `.creds` text `creds` (and `name`'s own
 * inbox prefix). Node dials TCP (relay-link.ts `connectRelay`), the phone a WebSocket.
 */
export type RelayConnect = (url: string, creds: string, name: string) => Promise<NatsConnection>

/** Stores `value` at `key` only if the key is new (KV `create()`); false when it already holds a value. */
export { createEntry } from '../exchange/relay-kv'

/** Stores `value` at `key`, replacing what is there (the roster's `current`). Resolves with the new revision. */
export async function putEntry(nc: NatsConnection, bucket: string, key: string, value: Uint8Array): Promise<number> {
  return (await jetstream(nc, { checkAPI: false }).publish(`$KV.${bucket}.${key}`, value)).seq
}

/**
 * Replaces the value at `key` only if its revision is still `revision` (0: only if the key is new), so
 * a concurrent change is never overwritten. Resolves with the new revision, or `undefined` when the key
 * changed meanwhile.
 */
export async function replaceEntry(
  nc: NatsConnection,
  bucket: string,
  key: string,
  value: Uint8Array,
  revision: number,
): Promise<number | undefined> {
  try {
    return (
      await jetstream(nc, { checkAPI: false }).publish(`$KV.${bucket}.${key}`, value, {
        expect: { lastSubjectSequence: revision },
      })
    ).seq
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === WRONG_LAST_SEQUENCE) return undefined
    throw error
  }
}

/** The value and revision at `key` through a direct get, or undefined when there is none. */
export async function getEntry(
  nc: NatsConnection,
  bucket: string,
  key: string,
): Promise<{ value: Uint8Array; revision: number } | undefined> {
  const kv = await new Kvm(jetstream(nc, { checkAPI: false })).open(bucket, { allow_direct: true })
  const entry = await kv.get(key)
  return entry === null || entry.operation !== 'PUT' ? undefined : { value: entry.value, revision: entry.revision }
}

/**
 * Calls `onEntry` for the value at `key` and every later one, in stream order, until `stop()` is called.
 * Watching uses the extended consumer create filtered on that one key.
 */
export async function watchKey(
  nc: NatsConnection,
  bucket: string,
  key: string,
  onEntry: (entry: KvEntry) => void,
): Promise<{ stop: () => void }> {
  const kv = await new Kvm(jetstream(nc, { checkAPI: false })).open(bucket, { allow_direct: true })
  const watch = await kv.watch({ key })
  void (async () => {
    for await (const entry of watch) if (entry.operation === 'PUT') onEntry(entry)
  })().catch(() => undefined)
  return { stop: () => watch.stop() }
}
