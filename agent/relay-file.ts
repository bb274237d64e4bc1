// The agent's relay file (`ask-user relay add-agent` writes it): its one schema, and how the agent side
// reads it from ASK_USER_RELAY_FILE or the inline ASK_USER_RELAY. Loaded only when a relay is configured.
import { z } from 'zod'
import { MemberSecretSchema } from '../relay/crypto'
import type { AgentRelayConfig } from '../relay/exchange'
import { checkRelayUrl } from '../relay/nats/server-version'
import { AskUserError } from '../shared/error-codes'
import { errorMessage } from '../shared/describe-error'
import { readOwnFile } from './discovery'
import type { RelaySource } from './relay-route'

/**
 * An agent's relay file (version 1), written once with mode 0600. Secret: it holds the agent's NATS
 * credential and private keys. The agent side parses it with this schema before using any of it.
 */
export const AgentRelayFileSchema = z.strictObject({
  v: z.literal(1),
  /** The relay URL (checked with relay/nats checkRelayUrl when the file was written, and again when read). */
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

/**
 * The relay configuration of `source`, checked: a file must be the caller's own and not readable by
 * others (as the discovery file), the content an {@link AgentRelayFileSchema} file, the URL free of
 * credentials and TLS unless loopback, the credential not yet expired at `now` (ms). Throws
 * `NO_PROVIDER` saying which variable is wrong and what to do; never echoes the file's content.
 */
export async function readAgentRelayConfig(
  source: RelaySource,
  now: number = Date.now(),
  platform: NodeJS.Platform = process.platform,
): Promise<AgentRelayConfig> {
  const from = source.kind === 'file' ? `ASK_USER_RELAY_FILE ${source.path}` : 'ASK_USER_RELAY'
  const text = source.kind === 'file' ? await readRelayFile(source.path, platform) : source.text
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw refused(`${from} is not JSON`)
  }
  const parsed = AgentRelayFileSchema.safeParse(json)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw refused(`${from} is not an agent relay file (${first?.path.join('.') || 'file'}: ${first?.message})`)
  }
  const file = parsed.data
  try {
    checkRelayUrl(file.url)
  } catch (error) {
    throw new AskUserError('NO_PROVIDER', `${from}: ${errorMessage(error)}`)
  }
  if (file.credsExpiresAt * 1000 <= now) {
    throw refused(`the relay credential in ${from} expired at ${new Date(file.credsExpiresAt * 1000).toISOString()}`)
  }
  return { url: file.url, creds: file.creds, agent: file.agent, rootPublicKey: file.rootPublicKey }
}

function refused(why: string): AskUserError {
  return new AskUserError('NO_PROVIDER', `${why}; ask the person for a new one (\`ask-user relay add-agent NAME\`)`)
}

async function readRelayFile(path: string, platform: NodeJS.Platform): Promise<string> {
  try {
    return await readOwnFile(path, platform, `it holds the agent's relay credential. Run \`chmod 600 ${path}\``)
  } catch (error) {
    if (error instanceof AskUserError) throw error
    throw new AskUserError(
      'NO_PROVIDER',
      `cannot read ASK_USER_RELAY_FILE ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    )
  }
}
