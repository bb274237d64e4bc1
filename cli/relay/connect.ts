// `ask-user relay connect` on a second desktop: joins the person's existing relay as a desktop. The
// pairing line and the root recovery code come in on stdin; the code is checked against the root key the
// line pins before anything is sent, so a wrong code costs nothing and writes nothing. Then the ordinary
// pairing exchange runs with a member of role `desktop`; the grant brings the desk secrets, and this home
// ends up holding the same kinds of files as the first desktop's, so either can change the roster.
import { ensurePrivateDir } from '../../core/private-files'
import { MemberSecretSchema, RootSecretSchema, rootFromRecoveryCode, type Member } from '../../relay/crypto'
import { checkDeskSecrets, saveDeskSecrets } from '../../relay/home/desk-secrets'
import { CLI_SERVER_CHECKS } from '../../relay/home/desktop-link'
import { RelaySettingsSchema, RELAY_FILES, saveJson, saveRoster } from '../../relay/home/state'
import { joinPairing, parsePairLine } from '../../relay/pairing'
import { RelayCliError } from './errors'
import { refuseRelayHome } from './join'

/**
 * Joins the relay of the pairing `line` as desktop `name`, with the root `recoveryCode` as typed.
 * `url`, when given, must equal the relay URL in the line (a check only: the line says where to go).
 * Refuses, in this order and before anything is sent: `RELAY_ALREADY_INITIALIZED` (this home already
 * belongs to a relay), the line's codes, `RELAY_CONNECT_URL_MISMATCH`, `RECOVERY_CODE_INVALID` (a typo),
 * `RELAY_RECOVERY_CODE_MISMATCH` (the code of another relay's root); then the pairing's codes. Writes
 * only after the grant is opened and checked.
 */
export async function connectDesktop(options: {
  home: string
  line: string
  recoveryCode: string
  name: string
  url?: string
  showCode: (code: string) => void
  now?: () => number
}): Promise<{ member: Member; rosterVersion: number }> {
  const now = options.now ?? Date.now
  await refuseRelayHome(options.home, 'connect')
  const offer = parsePairLine(options.line, now())
  if (options.url !== undefined && options.url !== offer.url) {
    throw new RelayCliError(
      'RELAY_CONNECT_URL_MISMATCH',
      `The pairing line is for the relay at ${offer.url}, not ${options.url}; nothing was sent. Check which relay you meant, or leave the URL out.`,
    )
  }
  const root = await rootFromRecoveryCode(options.recoveryCode)
  if (root.keys.publicKey !== offer.rootPublicKey) {
    throw new RelayCliError(
      'RELAY_RECOVERY_CODE_MISMATCH',
      'That recovery code is not the root key of the relay in the pairing line (another relay’s code?); nothing was sent. Type the root recovery code `relay init` printed for this relay.',
    )
  }
  const joined = await joinPairing(offer, {
    name: options.name,
    role: 'desktop',
    showCode: options.showCode,
    now,
    server: CLI_SERVER_CHECKS,
  })
  // join-exchange refuses a desktop grant without the desk secrets; checked here before any write.
  const desk = joined.grant.desk!
  const secrets = checkDeskSecrets(desk)
  await ensurePrivateDir(options.home)
  await saveDeskSecrets(options.home, secrets)
  await saveJson(options.home, RELAY_FILES.root, RootSecretSchema, root.secret)
  await saveJson(options.home, RELAY_FILES.desktop, MemberSecretSchema, joined.secret)
  await saveRoster(options.home, joined.signedRoster)
  await saveJson(options.home, RELAY_FILES.settings, RelaySettingsSchema, {
    v: 1,
    url: offer.url,
    rootPublicKey: offer.rootPublicKey,
    ...(desk.websocketUrl === undefined ? {} : { websocketUrl: desk.websocketUrl }),
    ...(desk.appUrl === undefined ? {} : { appUrl: desk.appUrl }),
  })
  return { member: joined.secret.member, rosterVersion: joined.roster.version }
}
