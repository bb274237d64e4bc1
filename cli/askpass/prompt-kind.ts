/**
 * What an askpass prompt asks for, sorted as KDE's ksshaskpass does:
 * - `secret`: a password or passphrase, and anything not recognized (the safe default);
 * - `username`: git's `Username for 'https://host': ` (plain text);
 * - `host-key`: ssh's "Are you sure you want to continue connecting (yes/no/[fingerprint])?";
 * - `confirm`: `SSH_ASKPASS_PROMPT=confirm` (ssh-agent confirmations: Allow / Deny);
 * - `notice`: `SSH_ASKPASS_PROMPT=none` (a security-key touch reminder: shown, nothing to answer).
 */
export type PromptKind = 'secret' | 'username' | 'host-key' | 'confirm' | 'notice'

/** Sorts `prompt` (askpass's argv[1]) given `SSH_ASKPASS_PROMPT` from the environment. */
export function promptKind(prompt: string, sshAskpassPrompt: string | undefined): PromptKind {
  if (sshAskpassPrompt === 'confirm') return 'confirm'
  if (sshAskpassPrompt === 'none') return 'notice'
  if (/continue connecting \(yes\/no(\/\[fingerprint\])?\)\?/i.test(prompt)) return 'host-key'
  if (/^\s*username\b/i.test(prompt)) return 'username'
  return 'secret'
}

/** The `SHA256:…` (or `MD5:…`) fingerprint in a host-key prompt, if any. */
export function fingerprintOf(prompt: string): string | undefined {
  return /\b(?:SHA256|MD5):[A-Za-z0-9+/=:]+/.exec(prompt)?.[0]
}
