// The one file `relay add-agent` writes for an agent: everything it needs to ask through the relay.
import { z } from 'zod'
import { MemberSecretSchema } from '../../relay/crypto'

/**
 * An agent's relay file (version 1), written once with mode 0600. Secret: it holds the agent's NATS
 * credential and private keys. The agent side parses it with this schema before using any of it.
 */
export const AgentRelayFileSchema = z.strictObject({
  v: z.literal(1),
  /** The relay URL (checked with relay/nats checkRelayUrl when the file was written). */
  url: z.string().min(1),
  /** The NATS `.creds` text: a user JWT of the agent role, scoped to this agent's name, and its seed. */
  creds: z.string().min(1),
  /** When the credential expires, seconds since the epoch; run add-agent again before then. */
  credsExpiresAt: z.int().min(0),
  /** The agent's member keys; its public record is in the roster. */
  agent: MemberSecretSchema,
  /** The root public key (base64url) the agent pins: it accepts only rosters this key signed. */
  rootPublicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a 32-byte base64url key'),
})
export type AgentRelayFile = z.infer<typeof AgentRelayFileSchema>
