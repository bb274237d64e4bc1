import type * as Electron from 'electron'
import { approvalLine, type Ask } from '../../shared'
import type { Platform } from './electron-api'
import { plainLabel, plainQuestion, truncate } from './notification-text'
import type { Strings } from './strings'

/** Most pending asks listed in the tray menu; the rest are reached through "Open". */
export const MENU_ASK_LIMIT = 15

/** What the tray menu shows. */
export interface TrayMenuState {
  pending: readonly Ask[]
  doNotDisturb: boolean
  startAtLogin: boolean
}

/** What the tray menu's items do. */
export interface TrayMenuActions {
  openAsk(askId: string): void
  open(): void
  setDoNotDisturb(on: boolean): void
  setStartAtLogin(on: boolean): void
  /** Puts `ask-user` on the PATH; absent where there is nothing to install (a development run). */
  installCommandLine?(): void
  /** Looks for a new release now; absent where the app has no updates (a development run). */
  checkForUpdates?(): void
  quit(): void
}

/**
 * The tray menu: one item per pending ask ("agent — header or question", oldest first, at most
 * `MENU_ASK_LIMIT`), Open, Do not disturb, Start at login, Install Command Line Tool… and Check for Updates… (packaged app), Quit. On Windows and Linux `&` in agent
 * text is doubled so that it shows instead of marking an access key.
 */
export function trayMenuTemplate(
  state: TrayMenuState,
  strings: Strings,
  actions: TrayMenuActions,
  platform: Platform,
): Electron.MenuItemConstructorOptions[] {
  const label = (text: string): string => (platform === 'darwin' ? text : text.replace(/&/g, '&&'))
  const asks: Electron.MenuItemConstructorOptions[] =
    state.pending.length === 0
      ? [{ label: strings.noPending, enabled: false }]
      : state.pending.slice(0, MENU_ASK_LIMIT).map((ask) => ({
          id: `ask:${ask.askId}`,
          label: label(askMenuLabel(ask)),
          click: () => actions.openAsk(ask.askId),
        }))
  return [
    ...asks,
    { type: 'separator' },
    { id: 'open', label: strings.open, click: () => actions.open() },
    {
      id: 'do-not-disturb',
      label: strings.doNotDisturb,
      type: 'checkbox',
      checked: state.doNotDisturb,
      click: (item) => actions.setDoNotDisturb(item.checked),
    },
    {
      id: 'start-at-login',
      label: strings.startAtLogin,
      type: 'checkbox',
      checked: state.startAtLogin,
      click: (item) => actions.setStartAtLogin(item.checked),
    },
    ...(actions.installCommandLine
      ? [{ id: 'install-command-line', label: strings.installCommandLine, click: () => actions.installCommandLine?.() }]
      : []),
    ...(actions.checkForUpdates
      ? [{ id: 'check-for-updates', label: strings.checkForUpdates, click: () => actions.checkForUpdates?.() }]
      : []),
    { type: 'separator' },
    { id: 'quit', label: strings.quit, click: () => actions.quit() },
  ]
}

/** "Claude Code — Database: Which database should we use?", cut to 60 characters. */
export function askMenuLabel(ask: Ask): string {
  if (ask.kind === 'approval') return truncate(plainLabel(approvalLine(ask.agent.name, ask.approval)), 60)
  const first = ask.questions[0]
  const what =
    first?.header !== undefined
      ? plainLabel(first.header)
      : first
        ? plainQuestion(first.question)
        : plainLabel(ask.title ?? '')
  const name = plainLabel(ask.agent.name)
  return truncate(what ? `${name} — ${what}` : name, 60)
}
