import type { Ask } from '../../shared'
import { isSecretQuestion } from '../../shared/question-extras'
import type { Platform } from './electron-api'

/** Most buttons a notification offers (Windows toasts hold five actions; macOS gets the same rule). */
export const MAX_BUTTONS = 5

/** Why a notification has no answer controls; each is one row of the table in docs/desktop.md. */
export type NoControlsReason =
  | 'platform' // Linux: Electron's libnotify backend gives a click only
  | 'several-questions'
  | 'multi-select'
  | 'too-many-options'
  | 'detail' // a `detail` (a plan to read) or an `intent`
  | 'secret' // toast inputs are never masked
  | 'askpass' // the companion traced it to its askpass helper: host keys and confirmations are read in the window
  | 'approval' // a command must be read in full
  | 'follow-up' // "no longer waiting": there is nothing left to answer
  | 'notice' // an agent's notice: nothing to answer

/** What a notification offers besides a click that opens the window at its ask. */
export type Controls =
  | { kind: 'buttons'; labels: string[] }
  | { kind: 'reply'; question: string }
  | { kind: 'none'; reason: NoControlsReason }

/**
 * Which answer controls the notification of `ask` gets on `platform` (issue 18):
 * - buttons: exactly one single-select question with 1–5 options, no `detail`, no `intent`;
 * - reply: exactly one free-text question (no options), no `detail`, not secret;
 * - none (a click opens the window at the ask) for everything else: several questions, multi-select,
 *   more than five options, a `detail` or `intent`, a secret, an askpass ask, an approval, and on Linux.
 * An askpass ask is one carrying the companion-set `askpass` mark; the agent's name decides nothing.
 * Pure; the labels and the question are the agent's raw text (notification-text.ts makes them plain).
 */
export function controlsFor(ask: Ask, platform: Platform): Controls {
  if (platform !== 'darwin' && platform !== 'win32') return { kind: 'none', reason: 'platform' }
  if (ask.kind === 'approval') return { kind: 'none', reason: 'approval' }
  if (ask.askpass !== undefined) return { kind: 'none', reason: 'askpass' }
  const [question, ...more] = ask.questions
  if (!question || more.length > 0) return { kind: 'none', reason: 'several-questions' }
  if (isSecretQuestion(question)) return { kind: 'none', reason: 'secret' }
  if (question.detail !== undefined || question.intent !== undefined) return { kind: 'none', reason: 'detail' }
  const options = question.options ?? []
  if (options.length === 0) return { kind: 'reply', question: question.question }
  if (question.multi_select === true) return { kind: 'none', reason: 'multi-select' }
  if (options.length > MAX_BUTTONS) return { kind: 'none', reason: 'too-many-options' }
  return { kind: 'buttons', labels: options.map((option) => option.label) }
}
