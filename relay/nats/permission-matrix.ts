import { BUCKETS, DESK_RECORDS_KEY } from './templates'
import { expandTemplate, ROLES, type Role } from './templates'

/**
 * The permission matrix (RELAY.md §4.2, §6): for every role, the operations a client may try and
 * whether the role's template allows each. Generated from the same templates that sign credentials, so
 * a test can run each row against a real server and check the server enforces what we mint.
 */

/** One operation, with the subject the server checks for it. */
export type Probe =
  | { op: 'kv-create'; bucket: string; key: string; subject: string }
  | { op: 'kv-get'; bucket: string; key: string; subject: string }
  | { op: 'kv-watch'; bucket: string; filter: string; subject: string }
  | { op: 'legacy-consumer-create'; bucket: string; filter: string; subject: string }
  | { op: 'stream-delete' | 'stream-purge' | 'message-delete'; bucket: string; subject: string }
  | { op: 'subscribe'; subject: string }

/** One row: `role` acting as `self`, trying `probe`; `allowed` is what the template grants. */
export interface MatrixRow {
  role: Role
  self: string
  probe: Probe
  allowed: boolean
}

const kvCreate = (bucket: string, key: string): Probe => ({
  op: 'kv-create',
  bucket,
  key,
  subject: `$KV.${bucket}.${key}`,
})
const kvGet = (bucket: string, key: string): Probe => ({
  op: 'kv-get',
  bucket,
  key,
  subject: `$JS.API.DIRECT.GET.KV_${bucket}.$KV.${bucket}.${key}`,
})
// The consumer name is any one token; the probe uses a fixed one, the client a random one.
const kvWatch = (bucket: string, filter: string): Probe => ({
  op: 'kv-watch',
  bucket,
  filter,
  subject: `$JS.API.CONSUMER.CREATE.KV_${bucket}.probe.$KV.${bucket}.${filter}`,
})

/** Every probe for a client named `self` while another client is named `other`. */
export function probesFor(self: string, other: string): Probe[] {
  const { inbox, roster, presence, pair, secret } = BUCKETS
  return [
    kvCreate(inbox, `q.${self}.ask1`),
    kvCreate(inbox, `q.${other}.ask1`),
    kvCreate(inbox, `r.${self}.ask1`),
    kvCreate(inbox, `a.${self}.ask1`),
    kvCreate(inbox, `a.${other}.ask1`),
    kvCreate(secret, `a.${self}.ask1`),
    kvCreate(secret, `a.${other}.ask1`),
    kvCreate(secret, `q.${self}.ask1`),
    kvCreate(presence, self),
    kvCreate(presence, other),
    kvCreate(roster, 'current'),
    kvCreate(roster, `cred.${other}`),
    kvCreate(roster, `pw.${self}`),
    kvCreate(roster, `pw.${other}`),
    kvCreate(roster, `sub.${self}`),
    kvCreate(roster, `sub.${other}`),
    kvCreate(roster, DESK_RECORDS_KEY),
    kvCreate(pair, `req.pair1`),
    kvGet(inbox, `q.${self}.ask1`),
    kvGet(inbox, `q.${other}.ask1`),
    kvGet(inbox, `a.${self}.ask1`),
    kvGet(inbox, `a.${other}.ask1`),
    kvGet(secret, `a.${self}.ask1`),
    kvGet(secret, `a.${other}.ask1`),
    kvGet(roster, 'current'),
    kvGet(roster, `cred.${self}`),
    kvGet(roster, `cred.${other}`),
    kvGet(roster, `pw.${self}`),
    kvGet(roster, `pw.${other}`),
    kvGet(roster, `sub.${other}`),
    kvGet(roster, DESK_RECORDS_KEY),
    kvGet(presence, other),
    kvWatch(inbox, `a.${self}.>`),
    kvWatch(inbox, `a.${other}.>`),
    kvWatch(inbox, 'q.>'),
    kvWatch(secret, `a.${self}.>`),
    kvWatch(secret, `a.${other}.>`),
    kvWatch(roster, 'current'),
    kvWatch(roster, `pw.${self}`),
    kvWatch(roster, `pw.${other}`),
    kvWatch(roster, 'pw.*'),
    kvWatch(roster, 'sub.*'),
    kvWatch(roster, DESK_RECORDS_KEY),
    kvWatch(presence, '*'),
    {
      op: 'legacy-consumer-create',
      bucket: inbox,
      filter: `$KV.${inbox}.a.${other}.>`,
      subject: `$JS.API.CONSUMER.CREATE.KV_${inbox}`,
    },
    { op: 'stream-delete', bucket: inbox, subject: `$JS.API.STREAM.DELETE.KV_${inbox}` },
    { op: 'stream-purge', bucket: inbox, subject: `$JS.API.STREAM.PURGE.KV_${inbox}` },
    { op: 'message-delete', bucket: inbox, subject: `$JS.API.STREAM.MSG.DELETE.KV_${inbox}` },
    { op: 'subscribe', subject: `_INBOX.${self}.x` },
    { op: 'subscribe', subject: `_INBOX.${other}.x` },
    { op: 'subscribe', subject: '_INBOX.>' },
    { op: 'subscribe', subject: '$KV.inbox.>' },
  ]
}

/**
 * Whether `subject` is covered by the pattern `pattern` under NATS rules: `*` is one token, `>` one or
 * more trailing tokens. A wildcard in `subject` (a subscription) is covered only by the same or a wider one.
 */
export function subjectCovered(pattern: string, subject: string): boolean {
  const p = pattern.split('.')
  const s = subject.split('.')
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i
    if (i >= s.length) return false
    if (p[i] === '*') {
      if (s[i] === '>') return false
      continue
    }
    if (p[i] !== s[i]) return false
  }
  return p.length === s.length
}

/** Whether `role` acting as `self` may do `probe`, by its expanded template. */
export function templateAllows(role: Role, self: string, probe: Probe): boolean {
  const { pub, sub } = expandTemplate(role, self)
  const list = probe.op === 'subscribe' ? sub : pub
  return list.some((pattern) => subjectCovered(pattern, probe.subject))
}

/** The whole matrix: every role × every probe, with a fixed pair of names per role. */
export function permissionMatrix(names: Record<Role, { self: string; other: string }>): MatrixRow[] {
  return ROLES.flatMap((role) =>
    probesFor(names[role].self, names[role].other).map((probe) => ({
      role,
      self: names[role].self,
      probe,
      allowed: templateAllows(role, names[role].self, probe),
    })),
  )
}
