// `ask-user relay renew`: what the companion does at every start, on demand, said in words.
import { renewRelayAtStart, type RelayStartResult } from '../../relay/renewal'
import { RelayHomeError } from '../../relay/home/errors'

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')

/**
 * Runs the start renewals for `home` and returns the lines to show and whether the relay took them.
 * Throws `RELAY_NOT_INITIALIZED` when the home has no relay, and relay/home's codes for damaged files.
 */
export async function renewRelay(home: string, now?: () => number): Promise<{ lines: string[]; ok: boolean }> {
  const result = await renewRelayAtStart(home, now === undefined ? {} : { now })
  if (result.role === 'none') {
    throw new RelayHomeError(
      'RELAY_NOT_INITIALIZED',
      'This companion home has no relay; run `ask-user relay init` on the first desktop or `ask-user relay join` on a device.',
    )
  }
  return {
    lines: [...describeResult(result), ...result.warnings.map((warning) => `Warning: ${warning}`)],
    ok: result.problem === undefined,
  }
}

function describeResult(result: Exclude<RelayStartResult, { role: 'none' }>): string[] {
  const lines: string[] = []
  if (result.role === 'desktop') {
    lines.push(
      result.published
        ? `Roster version ${result.rosterVersion} signed, valid until ${day(result.rosterExpiresAt)}; published to the relay.`
        : `Roster version ${result.rosterVersion} (valid until ${day(result.rosterExpiresAt)}) not renewed: nothing is signed until the relay can be reached.`,
    )
    if (result.published)
      lines.push(
        result.devicesRenewed.length === 0
          ? 'No device credential was due.'
          : `Renewed the credential of: ${result.devicesRenewed.join(', ')}.`,
      )
    if (result.accountUpdated)
      lines.push(
        "Updated the relay account's role rights to this release's (mirroring local asks, password read-back).",
      )
  } else {
    lines.push(
      `Roster version ${result.rosterVersion}. Relay credential ${result.credentialRenewed ? 'renewed' : 'unchanged'}, valid until ${day(result.credentialExpiresAt)}.`,
    )
  }
  if (result.problem !== undefined) lines.push(`Error: ${result.problem}`)
  return lines
}
