// Windows toasts with answer controls. Electron's own toast marks each button `type=action&action=N&tag=T`
// and the reply `type=reply&tag=T` (input id `reply`), where T is base::FastHash of the notification's
// id: a number the app cannot compute (Chromium says FastHash may change without warning). So the
// toast is written here in Electron's format with T = a tag the app chose, and an activation that
// reaches only `Notification.handleActivation` (after the toast left the screen, or after a restart)
// still names its notification.
import type * as Electron from 'electron'
import type { NotificationInput } from './notification-input'

/** The fixed toast activator CLSID (set before the first toast; stable across versions and installs). */
export const TOAST_ACTIVATOR_CLSID = '{D7CB5865-D168-4A5A-AA89-43B0F68B8B3E}'

/** What one toast shows. */
export interface ToastContent {
  title: string
  body: string
  silent: boolean
  /** The app's tag for this toast: letters and digits only. */
  tag: string
  buttons: readonly string[]
  /** Present: the toast has a reply box with this placeholder, sent by a button labelled `replyLabel`. */
  placeholder?: string
  replyLabel: string
}

const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch)

/** The arguments Electron parses from an activation: `type=...&action=N&tag=...`. */
export function activationArguments(type: 'click' | 'action' | 'reply', tag: string, actionIndex?: number): string {
  return type === 'action' ? `type=action&action=${actionIndex ?? 0}&tag=${tag}` : `type=${type}&tag=${tag}`
}

/**
 * The toast's XML (Microsoft's ToastGeneric schema, as Electron writes it): title and body, one
 * foreground button per label, and for a reply the text input `reply` and its send button. A click on
 * the body activates with `type=click&tag=...`.
 */
export function toastXml(content: ToastContent): string {
  const actions: string[] = []
  if (content.placeholder !== undefined) {
    actions.push(`<input id="reply" type="text" placeHolderContent="${escapeXml(content.placeholder)}"/>`)
  }
  content.buttons.forEach((label, index) => {
    actions.push(
      `<action activationType="foreground" arguments="${escapeXml(activationArguments('action', content.tag, index))}" content="${escapeXml(label)}"/>`,
    )
  })
  if (content.placeholder !== undefined) {
    actions.push(
      `<action activationType="foreground" arguments="${escapeXml(activationArguments('reply', content.tag))}" content="${escapeXml(content.replyLabel)}" hint-inputId="reply"/>`,
    )
  }
  return (
    `<toast launch="${escapeXml(activationArguments('click', content.tag))}">` +
    `<visual><binding template="ToastGeneric"><text>${escapeXml(content.title)}</text><text>${escapeXml(content.body)}</text></binding></visual>` +
    (actions.length > 0 ? `<actions>${actions.join('')}</actions>` : '') +
    (content.silent ? '<audio silent="true"/>' : '') +
    `</toast>`
  )
}

/** One activation as `handleActivation` reports it: its toast's tag (when it names one) and what was done. */
export interface ParsedActivation {
  tag: string | undefined
  input: NotificationInput | undefined
}

/**
 * Reads an activation like Electron does: `&`-separated `key=value` pairs of `arguments` (no decoding);
 * `tag=` names the toast, since `ActivationArguments` has no tag field. An `action` carries its button
 * index (`actionIndex`, else `action=`), a `reply` its text (`reply`, else the `reply` user input). A
 * click (or anything else) has no input.
 */
export function parseActivation(details: Electron.ActivationArguments): ParsedActivation {
  const pairs = new Map<string, string>()
  for (const token of details.arguments.split('&')) {
    const [key, value, ...rest] = token.split('=')
    if (key && value !== undefined && rest.length === 0) pairs.set(key, value)
  }
  const tag = pairs.get('tag') || undefined
  const type = details.type || pairs.get('type')
  if (type === 'action') {
    const actionIndex = details.actionIndex ?? Number(pairs.get('action') ?? Number.NaN)
    return { tag, input: { kind: 'action', actionIndex } }
  }
  if (type === 'reply')
    return { tag, input: { kind: 'reply', reply: details.reply ?? details.userInputs?.['reply'] ?? '' } }
  return { tag, input: undefined }
}
