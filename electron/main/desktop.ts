// The desktop app's table of contents: the single-instance lock, then the wiring in order. The parts
// are built in desktop-context.ts, each behaviour is a step in desktop-steps.ts.
import type { DesktopCompanion } from './companion'
import { createDesktopContext } from './desktop-context'
import type { DesktopOptions } from './desktop-context'
import {
  attentionStep,
  dockStep,
  loginItemStep,
  notificationsStep,
  quitStep,
  trayStep,
  unsignedNoticeStep,
  windowsToastsStep,
} from './desktop-steps'
import type { IpcHub } from './ipc-hub'
import type { SettingsStore } from './settings-store'
import { claimSingleInstance } from './single-instance'
import type { CompanionTray } from './tray'
import type { QuestionWindow } from './window'
import { errorMessage } from '../../shared/describe-error'

export type { CoreApi, DesktopOptions } from './desktop-context'

/** The running desktop app, returned for tests and for the entry point. */
export interface Desktop {
  companion: DesktopCompanion
  settings: SettingsStore
  window: QuestionWindow
  hub: IpcHub
  tray: CompanionTray
  /** Brings the window up on one ask (tray menu, notification click). */
  openAsk(askId: string): void
  quit(): void
}

/**
 * Starts the desktop app: takes the single-instance lock (a second launch focuses the first and exits
 * 0; the promise then resolves `undefined`), waits for `ready`, then runs `onReady`. A core that cannot
 * start (a fixed port in use, an unwritable home) is shown in an error box and the app exits 1.
 */
export async function startDesktop(options: DesktopOptions): Promise<Desktop | undefined> {
  const { app } = options
  let showWindow = (): void => {}
  if (!claimSingleInstance(app, () => showWindow())) return undefined
  await app.whenReady()
  try {
    const desktop = await onReady(options)
    showWindow = () => desktop.window.show()
    return desktop
  } catch (error) {
    const message = errorMessage(error)
    ;(options.warn ?? console.error)(`Error: the companion could not start: ${message}`)
    options.electron().dialog.showErrorBox('Ask User Companion could not start', message)
    app.exit(1)
    return undefined
  }
}

/** The app's wiring, in order. */
async function onReady(options: DesktopOptions): Promise<Desktop> {
  windowsToastsStep(options)
  const ctx = await createDesktopContext(options)
  attentionStep(ctx)
  notificationsStep(ctx)
  await unsignedNoticeStep(ctx)
  quitStep(ctx)
  const tray = trayStep(ctx)
  loginItemStep(ctx)
  dockStep(ctx)
  const { companion, settings, window, hub, openAsk, quit } = ctx
  return { companion, settings, window, hub, tray, openAsk, quit }
}
