/// <reference types="electron-vite/node" />
// The tray icons (drawn by build/make-icons.mjs), copied into out/main by electron-vite's `?asset`
// imports so that they ship inside app.asar. Each pair is the 1x and 2x (HiDPI) rendition.
import overlay from '../../build/tray/overlay.png?asset'
import overlay2x from '../../build/tray/overlay@2x.png?asset'
import darkPending from '../../build/tray/tray-dark-pending.png?asset'
import darkPending2x from '../../build/tray/tray-dark-pending@2x.png?asset'
import dark from '../../build/tray/tray-dark.png?asset'
import dark2x from '../../build/tray/tray-dark@2x.png?asset'
import lightPending from '../../build/tray/tray-light-pending.png?asset'
import lightPending2x from '../../build/tray/tray-light-pending@2x.png?asset'
import light from '../../build/tray/tray-light.png?asset'
import light2x from '../../build/tray/tray-light@2x.png?asset'
import template from '../../build/tray/trayTemplate.png?asset'
import template2x from '../../build/tray/trayTemplate@2x.png?asset'

/** Paths of one icon at 1x and 2x. */
export interface IconPair {
  x1: string
  x2: string
}

/** Every tray icon variant (see build/make-icons.mjs for what each looks like). */
export interface TrayIconPaths {
  /** macOS template image: the OS tints it for light and dark menu bars. */
  template: IconPair
  /** Dark glyph for light task bars / panels. */
  light: IconPair
  /** Light glyph for dark task bars / panels. */
  dark: IconPair
  lightPending: IconPair
  darkPending: IconPair
  /** Windows taskbar overlay shown while asks are pending. */
  overlay: IconPair
}

export const TRAY_ICON_PATHS: TrayIconPaths = {
  template: { x1: template, x2: template2x },
  light: { x1: light, x2: light2x },
  dark: { x1: dark, x2: dark2x },
  lightPending: { x1: lightPending, x2: lightPending2x },
  darkPending: { x1: darkPending, x2: darkPending2x },
  overlay: { x1: overlay, x2: overlay2x },
}
