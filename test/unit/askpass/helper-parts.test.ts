import { describe, expect, it } from 'vitest'
import { askpassQuestion, LABELS, outcomeOf } from '../../../cli/askpass/card'
import { redactArgument, redactedCommandLine } from '../../../cli/askpass/parent-command'
import { fingerprintOf, promptKind } from '../../../cli/askpass/prompt-kind'
import { validateAskInput } from '../../../shared/validate-input'

describe('prompt sorting (as ksshaskpass)', () => {
  it.each([
    ['[sudo] password for u: ', undefined, 'secret'],
    ["Password for 'https://u@host': ", undefined, 'secret'],
    ["u@host's password: ", undefined, 'secret'],
    ["Username for 'https://host': ", undefined, 'username'],
    ['Are you sure you want to continue connecting (yes/no/[fingerprint])? ', undefined, 'host-key'],
    ['Allow use of key?', 'confirm', 'confirm'],
    ['Confirm user presence for key ED25519-SK', 'none', 'notice'],
    ['Enter PIN for token:', undefined, 'secret'],
  ])('%j → %s', (prompt, env, kind) => {
    expect(promptKind(prompt, env)).toBe(kind)
  })
  it('finds the fingerprint', () => {
    expect(fingerprintOf('ED25519 key fingerprint is SHA256:abcDEF+/123.\nAre you sure')).toBe('SHA256:abcDEF+/123')
  })
})

describe('the receiver in the title', () => {
  it('redacts URL userinfo, credential options and token-like values', () => {
    expect(redactArgument('https://alice:pa55@host/repo.git')).toBe('https://***@host/repo.git')
    expect(redactArgument('--password=pa55')).toBe('--password=***')
    expect(redactArgument('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('***')
    expect(redactedCommandLine(['git-remote-https', 'origin', 'https://u@h/r'])).toBe(
      'git-remote-https origin https://***@h/r',
    )
  })
  it('never writes "goes only to" itself; warns for an unverified receiver; says "not verified" for a known name on macOS', () => {
    const verified = askpassQuestion({
      kind: 'secret',
      prompt: 'Password:',
      receiver: { program: 'sudo', verified: true },
      commandLine: 'sudo id',
      platform: 'linux',
      repeat: false,
    })
    expect(verified.detail).toBeUndefined()
    const script = askpassQuestion({
      kind: 'secret',
      prompt: 'Password:',
      receiver: { program: 'python3', verified: false },
      commandLine: 'python3 x.py',
      platform: 'linux',
      repeat: false,
    })
    expect(script.detail).toContain(
      '**Warning:** the answer will be printed to `python3` (`python3 x.py`), which is not verified',
    )
    const mac = askpassQuestion({
      kind: 'secret',
      prompt: 'Password:',
      receiver: { program: 'ssh', verified: false },
      commandLine: 'ssh h',
      platform: 'darwin',
      repeat: false,
    })
    expect(mac.detail).toContain('as `ps` names it: not verified')
    for (const card of [verified, script, mac]) expect(card.detail ?? '').not.toContain('goes only to')
  })
  it('redacts anywhere in an option name or after a non-letter scheme prefix, in one pass over a long hostile argument', () => {
    expect(redactArgument('--db-password=pa55&x=1 a=token=t0k')).toBe('--db-password=***&x=1 a=token=***')
    expect(redactArgument('1git+https://u:p@host/r')).toBe('1git+https://***@host/r')
    // Runs a regex used to rescan from each of their characters (quadratic: about a minute for these).
    const runs = `${'token'.repeat(13_000)} ${'auth-'.repeat(13_000)}/ ${'x'.repeat(65_000)}`
    expect(redactArgument(runs)).toBe(runs)
  })
})

describe('cards and outcomes', () => {
  it('every card is a valid protocol question; only the password is secret', () => {
    for (const kind of ['secret', 'username', 'host-key', 'confirm', 'notice'] as const) {
      const question = askpassQuestion({
        kind,
        prompt: 'p?',
        receiver: { program: 'ssh', verified: true },
        commandLine: 'ssh h',
        platform: 'linux',
        repeat: false,
      })
      expect(validateAskInput({ questions: [question] }).ok).toBe(true)
      expect(question.secret === true).toBe(kind === 'secret')
    }
  })
  it('host key: Yes prints yes, No exits 1; confirm: Allow 0, Deny 1; a skipped username exits 1', () => {
    expect(outcomeOf('host-key', { selected: [LABELS.yes] })).toEqual({ print: 'yes' })
    expect(outcomeOf('host-key', { selected: [LABELS.no] })).toEqual({ exit: 1 })
    expect(outcomeOf('confirm', { selected: [LABELS.allow] })).toEqual({ exit: 0 })
    expect(outcomeOf('confirm', { selected: [LABELS.deny] })).toEqual({ exit: 1 })
    expect(outcomeOf('username', { selected: [] })).toEqual({ exit: 1 })
    expect(outcomeOf('secret', { selected: [], custom: 'x' })).toEqual({ print: 'x' })
  })
})
