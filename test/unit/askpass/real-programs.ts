// Support for the askpass tests against the real sudo, ssh and git: a companion with two windows (one
// that masks, one that does not), the helper's path, running a program with no terminal, and the
// check that a secret went nowhere it should not.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { V1Ask as Ask } from '../../../core/ask-v1'
import { SECRETS_MASKED_QUERY } from '../../../shared/ui'
import { connectInfo } from '../../../core/connect-info'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi, type UiClient } from '../../helpers/ui-client'
import { REAL_PROGRAM_WAIT_MS } from '../../helpers/waits'

/** The `ask-user-askpass` bin of this checkout (needs `npm run build`). */
export const HELPER = join(__dirname, '..', '..', '..', 'bin', 'ask-user-askpass.js')

export interface Inbox {
  test: TestCompanion
  /** A window that declares `secrets=masked` (as our serve page does). */
  masked: UiClient
  /** A window that does not: it must never see a secret ask. */
  plain: UiClient
  warnings: string[]
  /** The variables the helper needs to reach this companion (the test user cannot read our home). */
  env: Record<string, string>
  close(): Promise<void>
}

/** How agents run the `ask-user` at `script`: the companion derives its askpass helper from it. */
const connectFor = (script: string) =>
  connectInfo({ platform: process.platform, home: '/nonexistent', env: {}, script })

/** How agents run this checkout's `ask-user`. */
export const CHECKOUT_CONNECT = connectFor(join(__dirname, '..', '..', '..', 'bin', 'ask-user.js'))

/**
 * A companion whose askpass helper is the one beside `cli` (default: this checkout's `bin/ask-user.js`;
 * tests that run the helper as another user pass their copy's, see test/helpers/other-user-cli.ts).
 */
export async function openInbox(cli?: string): Promise<Inbox> {
  const warnings: string[] = []
  const connect = cli === undefined ? CHECKOUT_CONNECT : connectFor(cli)
  // The companion runs as root here and the helper as the test user; on a person's machine both are the
  // same user. So the gate that closes other users' sockets at accept is off for this arrangement only.
  const test = await startTestCompanion({
    onWarning: (message) => void warnings.push(message),
    preAuth: { dropOtherUsers: false },
    ...(connect ? { connect } : {}),
  })
  const { companion } = test
  const masked = await connectUi({
    uiUrl: `${companion.uiUrl}?${SECRETS_MASKED_QUERY}`,
    token: companion.windowCredential(),
  })
  const plain = await connectUi(companion)
  return {
    test,
    masked,
    plain,
    warnings,
    env: { ASK_USER_URL: companion.agentUrl, ASK_USER_TOKEN: companion.token },
    close: async () => {
      try {
        await masked.close()
        await plain.close()
      } finally {
        await test.cleanup() // the companion and its temp home, even when a window failed to close
      }
    },
  }
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `args` under `setsid -w` with stdin from /dev/null: no controlling terminal, as under an agent.
 * `asUser` runs it through `setpriv` as that user (the sudo and ssh tests).
 */
export function runDetached(
  args: string[],
  env: Record<string, string>,
  options: { asUser?: { uid: number; gid: number }; cwd?: string } = {},
): Promise<Run> {
  const prefix = options.asUser
    ? ['setpriv', `--reuid=${options.asUser.uid}`, `--regid=${options.asUser.gid}`, '--init-groups', '--']
    : []
  const [command, ...rest] = [...prefix, 'setsid', '-w', ...args]
  const child = spawn(command!, rest, { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: options.cwd ?? '/tmp' })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** The next askpass card in the masking window (the helper's hello name only picks it out here). */
export function nextCard(inbox: Inbox, timeoutMs = REAL_PROGRAM_WAIT_MS): Promise<Ask> {
  return inbox.masked.nextAsk((ask) => ask.agent.name === 'ask-user-askpass', timeoutMs)
}

/** Types `text` into the card's one free-text question. */
export async function typeAnswer(inbox: Inbox, ask: Ask, text: string): Promise<void> {
  const reply = await inbox.masked.answer(ask.askId, [{ id: ask.questions[0]!.id, selected: [], custom: text }])
  expect(reply.type).toBe('accepted')
}

/** Picks an option of the card. */
export async function pick(inbox: Inbox, ask: Ask, label: string): Promise<void> {
  const reply = await inbox.masked.answer(ask.askId, [{ id: ask.questions[0]!.id, selected: [label] }])
  expect(reply.type).toBe('accepted')
}

/**
 * The secret is in no frame any window received (windows get the ask, never the answer back), not
 * in history, not in a warning; the plain window never saw a secret ask at all.
 */
export async function expectSecretKept(inbox: Inbox, secret: string): Promise<void> {
  await inbox.test.companion.history(1)
  const history = await readFile(join(inbox.test.home, 'history.jsonl'), 'utf8').catch(() => '')
  expect(history).not.toContain(secret)
  expect(JSON.stringify(inbox.masked.frames)).not.toContain(secret)
  expect(JSON.stringify(inbox.plain.frames)).not.toContain(secret)
  expect(inbox.warnings.join('\n')).not.toContain(secret)
  const plainAsks = inbox.plain.frames.flatMap((frame) =>
    frame.type === 'question/added' ? [frame.ask] : frame.type === 'snapshot' ? frame.pending : [],
  )
  expect(plainAsks.some((ask) => ask.questions.some((question) => question.secret === true))).toBe(false)
  for (const entry of await inbox.test.companion.history()) {
    if (entry.kind === 'question' && entry.questions.some((question) => question.secret === true))
      expect(entry.answers).toBeUndefined()
  }
}

/** True when `path` runs (exists and is executable) — for skips with a reason. */
export async function hasProgram(path: string): Promise<boolean> {
  const { access, constants } = await import('node:fs/promises')
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  )
}
