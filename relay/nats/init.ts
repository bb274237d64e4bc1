import { join } from 'node:path'
import { ensurePrivateDir, writeFileAtomic } from '../../core/private-files'
import type { RelayKeys } from './keys-file'
import { generateIdentities, type RelayIdentities } from './operator'
import { parseServerConfigOptions, renderServerConfig, type ServerConfigOptions } from './server-config'

/** The result of {@link initSelfHosted}. */
export interface SelfHostedInit {
  /** `dir`/nats-server.conf (0600). It holds JWTs and public keys only. */
  configPath: string
  /** What the companion keeps (save with `saveRelayKeys`). Secret. */
  companionKeys: RelayKeys
  /**
   * The offline recovery text to print: operator, account and system-account seeds. Secret: never log it,
   * never store it on the relay box; it re-signs the account if the companion's keys are lost.
   */
  recoveryText: string
  /** The account seed, for minting the setup-only admin credential that makes the buckets. Secret. */
  accountSeed: string
  /** Plain-language steps to run the server (also in `dir`/RUN.txt). */
  steps: string
  /** Public identities (JWTs, public keys), e.g. to re-render the config. */
  identities: Pick<
    RelayIdentities,
    'operatorJwt' | 'accountJwt' | 'accountPublicKey' | 'systemAccountJwt' | 'systemAccountPublicKey'
  >
}

/**
 * Makes a self-hosted relay's keys and writes its server folder `dir` (0700): `nats-server.conf`,
 * `RUN.txt`, and empty `jwt/` and `jetstream/` folders. Returns the companion's signing keys and the
 * offline recovery text separately; neither is written to `dir`. Throws `RELAY_BAD_OPTIONS` /
 * `RELAY_UNSAFE_PATH` before anything is written, and `PrivateFileError` for an unsafe folder.
 */
export async function initSelfHosted(dir: string, options: ServerConfigOptions): Promise<SelfHostedInit> {
  parseServerConfigOptions(options)
  const ids = await generateIdentities()
  const config = renderServerConfig(dir, ids, options)
  await ensurePrivateDir(dir)
  await ensurePrivateDir(join(dir, 'jwt'))
  await ensurePrivateDir(join(dir, 'jetstream'))
  const configPath = join(dir, 'nats-server.conf')
  await writeFileAtomic(configPath, config)
  const steps = [
    'Run the Ask User relay:',
    '1. Install nats-server 2.12.3 or newer (never an older one on a reachable host; see docs/relay.md).',
    `2. Copy this folder to the relay host, keeping it private (chmod 700), and start: nats-server -c ${configPath}`,
    '3. Open the client port and the WebSocket port in the firewall; both use TLS.',
    '4. Back on the desktop, within 24 hours, run `ask-user relay pair` to add a device: its first connection makes the buckets and publishes the roster.',
    '',
  ].join('\n')
  await writeFileAtomic(join(dir, 'RUN.txt'), steps)
  const recoveryText = [
    'ASK USER RELAY RECOVERY SHEET - keep offline (print it, then delete any copy on disk).',
    `operator seed: ${ids.operatorSeed}`,
    `account seed: ${ids.accountSeed}`,
    `system account seed: ${ids.systemAccountSeed}`,
    '',
  ].join('\n')
  return {
    configPath,
    companionKeys: {
      v: 1,
      accountPublicKey: ids.accountPublicKey,
      operatorSigningSeed: ids.operatorSigningSeed,
      roleSigningSeeds: ids.roleSigningSeeds,
      systemUserCreds: ids.systemUserCreds,
    },
    recoveryText,
    accountSeed: ids.accountSeed,
    steps,
    identities: {
      operatorJwt: ids.operatorJwt,
      accountJwt: ids.accountJwt,
      accountPublicKey: ids.accountPublicKey,
      systemAccountJwt: ids.systemAccountJwt,
      systemAccountPublicKey: ids.systemAccountPublicKey,
    },
  }
}
