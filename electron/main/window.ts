import type * as Electron from 'electron'
import type { RendererSource } from './content'
import { hardenedWebPreferences } from './security'
import type { WindowState } from './window-state'

/** The question window as the rest of the main process drives it. */
export interface QuestionWindow {
  readonly browserWindow: Electron.BrowserWindow
  /** Shows, restores and focuses the window (the person asked for it: tray, notification, dock). */
  show(): void
  /** True while the window is on screen and has keyboard focus (the person may be typing in it). */
  isFocused(): boolean
  /**
   * A new ask arrived: show and focus the window, except when it already has focus (never pull focus
   * or the caret away from someone typing an answer) or when `quiet` (Do not disturb) is set.
   */
  attention(quiet: boolean): void
  /** From now on closing really closes (quitting); before, closing hides to the tray. */
  allowClose(): void
}

export interface QuestionWindowOptions {
  BrowserWindow: typeof Electron.BrowserWindow
  source: RendererSource
  preload: string
  state: WindowState
  /** Persists the size and position; called after moves and resizes settle, and on close. */
  saveState(state: WindowState): void
  /** Start hidden in the tray (launched at login). */
  startHidden: boolean
  /** The language setting; other than `system` it is passed to the page as `?lang=` (its default). */
  language?: 'system' | 'en' | 'zh'
  /** Debounce for saving the state, in ms (default 500). */
  saveDelayMs?: number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

/**
 * Creates the single question window with hardened web preferences and loads the app's page (built
 * file or dev server only). A remembered maximized state is applied when the window is first shown,
 * never before (a launch at login stays in the tray). Closing hides it to the tray until `allowClose()`.
 */
export function createQuestionWindow(options: QuestionWindowOptions): QuestionWindow {
  const { state } = options
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = options.clearTimeout ?? ((handle) => clearTimeout(handle as NodeJS.Timeout))
  const win = new options.BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 420,
    minHeight: 320,
    show: false,
    title: 'Ask User Companion',
    autoHideMenuBar: true,
    webPreferences: hardenedWebPreferences(options.preload),
  })
  // `maximize()` also shows a hidden window (Electron docs), so it waits for the first time the window
  // is shown: a launch at login stays in the tray, and nothing flashes before the page has painted.
  let maximizeOnShow = state.maximized
  const reveal = (): void => {
    if (maximizeOnShow) {
      maximizeOnShow = false
      win.maximize()
    }
    win.show()
  }

  let closing = false
  let saveTimer: unknown
  const currentState = (): WindowState => {
    const bounds = win.getNormalBounds()
    return { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height, maximized: win.isMaximized() }
  }
  const saveSoon = (): void => {
    if (saveTimer !== undefined) clearTimer(saveTimer)
    saveTimer = setTimer(() => {
      saveTimer = undefined
      if (!win.isDestroyed()) options.saveState(currentState())
    }, options.saveDelayMs ?? 500)
  }
  win.on('resize', saveSoon)
  win.on('move', saveSoon)
  win.on('maximize', saveSoon)
  win.on('unmaximize', saveSoon)
  win.on('close', (event) => {
    if (saveTimer !== undefined) clearTimer(saveTimer)
    saveTimer = undefined
    options.saveState(currentState())
    if (!closing) {
      event.preventDefault()
      win.hide()
    }
  })
  win.once('ready-to-show', () => {
    if (!options.startHidden) reveal()
  })

  const lang = options.language && options.language !== 'system' ? options.language : undefined
  if (options.source.kind === 'dev') {
    const url = new URL(options.source.url)
    if (lang) url.searchParams.set('lang', lang)
    void win.loadURL(url.href)
  } else void win.loadFile(options.source.path, lang ? { query: { lang } } : undefined)

  const show = (): void => {
    if (win.isDestroyed()) return
    if (win.isMinimized()) win.restore()
    reveal()
    win.focus()
  }
  const isFocused = (): boolean => !win.isDestroyed() && win.isVisible() && !win.isMinimized() && win.isFocused()
  return {
    browserWindow: win,
    show,
    isFocused,
    attention(quiet) {
      if (quiet || isFocused()) return
      show()
    },
    allowClose() {
      closing = true
    },
  }
}
