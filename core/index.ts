// The companion core (plain Node, no electron): the public surface used by Electron main and `ask-user serve`.
export { startCompanion } from './companion'
export type { Companion, CompanionOptions, WindowHandle } from './companion'
export { connectInfo, type Install } from './connect-info'
export { resolveHome } from './home'
export { loadSettings, saveSettings } from './settings-store'
export { CompanionRunningError } from './discovery'
export { STATUS_PATH, type CompanionStatus } from '../shared/endpoint'
