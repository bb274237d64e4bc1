import type * as Electron from 'electron'
import type { DesktopCompanion } from './companion'
import type { Strings } from './strings'
import { errorMessage } from '../../shared/describe-error'

export interface QuitOptions {
  app: Electron.App
  dialog: Electron.Dialog
  companion: DesktopCompanion
  strings(): Strings
  /** The window to parent the confirmation to, if any. */
  window(): Electron.BrowserWindow | undefined
  /** Runs once, after the person confirmed and before the core stops (close windows, tray...). */
  beforeStop(): void
  warn?(message: string): void
}

/**
 * Quitting, whoever asks (tray, Cmd+Q, OS logout): with asks pending the person confirms first
 * (Cancel keeps the app running); then the core stops gracefully (agents get close 1001 and their
 * asks resolve as aborted) and only then does the app exit. Closing the last window does not quit:
 * the app lives in the tray. Returns `quit()`, the tray's Quit action.
 */
export function setupQuit(options: QuitOptions): { quit(): void } {
  const { app, companion } = options
  let state: 'running' | 'confirming' | 'stopping' | 'stopped' = 'running'

  const confirm = async (): Promise<boolean> => {
    const count = companion.pending().length
    if (count === 0) return true
    const strings = options.strings()
    const box: Electron.MessageBoxOptions = {
      type: 'question',
      title: strings.quitTitle,
      message: strings.quitMessage(count),
      detail: strings.quitDetail,
      buttons: [strings.quitConfirm, strings.cancel],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    }
    const parent = options.window()
    // A hidden window cannot carry the dialog (on macOS it would be a sheet nobody sees).
    const { response } =
      parent && !parent.isDestroyed() && parent.isVisible()
        ? await options.dialog.showMessageBox(parent, box)
        : await options.dialog.showMessageBox(box)
    return response === 0
  }

  const stop = async (): Promise<void> => {
    state = 'stopping'
    options.beforeStop()
    try {
      await companion.close()
    } catch (error) {
      ;(options.warn ?? console.warn)(`companion did not close cleanly: ${errorMessage(error)}`)
    }
    state = 'stopped'
    app.quit()
  }

  app.on('before-quit', (event) => {
    if (state === 'stopped') return
    event.preventDefault()
    if (state !== 'running') return
    state = 'confirming'
    void confirm().then(
      (ok) => (ok ? stop() : void (state = 'running')),
      () => void (state = 'running'),
    )
  })
  app.on('window-all-closed', () => {
    // stay in the tray
  })
  return { quit: () => app.quit() }
}
