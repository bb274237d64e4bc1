import { jetstreamManager, type StreamConfig } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/nats-core'
import { BUCKETS } from './templates'

/**
 * The relay's KV buckets as JetStream streams (RELAY.md §4.2), made once at setup with the admin
 * credential. They are written directly rather than through `Kvm.create` so every safety setting is
 * ours: direct gets (per-key permissions need them), no deletes, no purges and no rollup headers (a
 * tombstone or a rollup would let a key be `create()`d again and an answer replaced, RELAY.md §3.2).
 * Only bucket-level `max_age` is used: per-key TTL needs server 2.11 and 2.9 silently ignores it.
 */

const MINUTE_NS = 60_000_000_000
const SECOND_NS = 1_000_000_000

/** One bucket's limits: `maxAgeSeconds` 0 = kept until replaced. */
export interface BucketSpec {
  name: string
  maxAgeSeconds: number
  maxValueBytes: number
}

/** Every bucket and its limits. */
export const BUCKET_SPECS: readonly BucketSpec[] = Object.freeze([
  { name: BUCKETS.inbox, maxAgeSeconds: 7 * 86_400, maxValueBytes: 1_048_576 },
  { name: BUCKETS.roster, maxAgeSeconds: 0, maxValueBytes: 262_144 },
  { name: BUCKETS.presence, maxAgeSeconds: 90, maxValueBytes: 4_096 },
  { name: BUCKETS.pair, maxAgeSeconds: 600, maxValueBytes: 16_384 },
  { name: BUCKETS.secret, maxAgeSeconds: 600, maxValueBytes: 1_048_576 },
])

/** The stream config of a bucket, in the KV layout (`KV_<name>`, subjects `$KV.<name>.>`). */
export function bucketStreamConfig(spec: BucketSpec): Partial<StreamConfig> & { name: string } {
  const maxAge = spec.maxAgeSeconds * SECOND_NS
  return {
    name: `KV_${spec.name}`,
    subjects: [`$KV.${spec.name}.>`],
    retention: 'limits' as StreamConfig['retention'],
    storage: 'file' as StreamConfig['storage'],
    discard: 'new' as StreamConfig['discard'],
    num_replicas: 1,
    max_msgs_per_subject: 1,
    max_msg_size: spec.maxValueBytes,
    max_age: maxAge,
    // The duplicate window may not exceed max_age (presence keeps 90 s).
    duplicate_window: maxAge === 0 ? 2 * MINUTE_NS : Math.min(2 * MINUTE_NS, maxAge),
    allow_direct: true,
    deny_delete: true,
    deny_purge: true,
    allow_rollup_hdrs: false,
  }
}

/**
 * Creates every missing bucket through `nc` (an admin connection) and returns the names it created;
 * an existing bucket is left as it is. Rejects with the server's JetStream error otherwise.
 */
export async function createBuckets(nc: NatsConnection): Promise<string[]> {
  const jsm = await jetstreamManager(nc)
  const created: string[] = []
  for (const spec of BUCKET_SPECS) {
    const config = bucketStreamConfig(spec)
    const exists = await jsm.streams.info(config.name).then(
      () => true,
      () => false,
    )
    if (exists) continue
    await jsm.streams.add(config)
    created.push(spec.name)
  }
  return created
}
