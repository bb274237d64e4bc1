import type * as Electron from 'electron'

/**
 * Takes the single-instance lock. A second launch gets `false` and exits at once with status 0; the
 * first instance is told (`second-instance`) and calls `onSecondInstance` (show the window).
 */
export function claimSingleInstance(app: Electron.App, onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.exit(0)
    return false
  }
  app.on('second-instance', () => onSecondInstance())
  return true
}
