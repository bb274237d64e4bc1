import type { Settings } from '../../shared'

/** Every text the main process shows (tray, notifications, dialogs), in each UI language. */
export interface Strings {
  appName: string
  open: string
  doNotDisturb: string
  startAtLogin: string
  quit: string
  /** Tray item of the packaged app: puts `ask-user` on the PATH. */
  installCommandLine: string
  commandLineInstalled: string
  commandLineNotInstalled: string
  checkForUpdates: string
  upToDate: string
  updateDownloading(version: string): string
  updateReady(version: string): string
  updateInstallsOnQuit: string
  updateFailed: string
  noPending: string
  /** Tray tooltip. */
  pendingTooltip(count: number): string
  /** Body of a grouped notification: "3 questions from 2 agents". */
  burst(questions: number, agents: number): string
  /** The button that sends a notification's inline reply (Windows). */
  reply: string
  /** Body of the follow-up when an answer from a notification found the ask settled or gone. */
  noLongerWaiting: string
  /** Start of the follow-up's body when a notification's input could not answer (an empty reply). */
  stillWaiting: string
  /** The one-time note in the window of a macOS build without a Developer ID signature. */
  unsignedTitle: string
  unsignedDetail: string
  quitTitle: string
  quitMessage(count: number): string
  quitDetail: string
  quitConfirm: string
  cancel: string
  /** The native question before a link from agent text opens in the browser. */
  openLinkMessage(host: string): string
  openLinkDetail: string
  openLinkConfirm: string
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

const en: Strings = {
  appName: 'Ask User Companion',
  open: 'Open',
  doNotDisturb: 'Do not disturb',
  startAtLogin: 'Start at login',
  quit: 'Quit',
  installCommandLine: 'Install Command Line Tool…',
  commandLineInstalled: 'The ask-user command is installed',
  commandLineNotInstalled: 'The ask-user command was not installed',
  checkForUpdates: 'Check for Updates…',
  upToDate: 'Ask User Companion is up to date',
  updateDownloading: (v) => `Version ${v} is available and downloading`,
  updateReady: (v) => `Version ${v} is downloaded`,
  updateInstallsOnQuit: 'It installs when you quit the app, never while a question is waiting.',
  updateFailed: 'Could not check for updates',
  noPending: 'No questions waiting',
  pendingTooltip: (n) =>
    n === 0 ? 'Ask User Companion' : `Ask User Companion: ${plural(n, 'question', 'questions')} waiting`,
  burst: (q, a) => `${plural(q, 'question', 'questions')} from ${plural(a, 'agent', 'agents')}`,
  reply: 'Reply',
  noLongerWaiting: 'This question is no longer waiting. Nothing was sent.',
  stillWaiting: 'Still waiting (the reply was empty):',
  unsignedTitle: 'Notifications need a signed build',
  unsignedDetail:
    'This copy of Ask User Companion is not signed with a Developer ID, so macOS may drop its notifications without a word. Questions still appear here and in the menu bar. A signed release shows notifications, with buttons and replies where a question allows.',
  quitTitle: 'Quit Ask User Companion?',
  quitMessage: (n) => `${plural(n, 'question is', 'questions are')} still waiting for you.`,
  quitDetail: 'Quitting tells the waiting agents that the companion went away; no answer is sent.',
  quitConfirm: 'Quit',
  cancel: 'Cancel',
  openLinkMessage: (host) => `Open a link to ${host} in your browser?`,
  openLinkDetail: 'The link comes from an agent. Check the address before you open it.',
  openLinkConfirm: 'Open link',
}

const zh: Strings = {
  appName: 'Ask User Companion',
  open: '打开',
  doNotDisturb: '勿扰模式',
  startAtLogin: '登录时启动',
  quit: '退出',
  installCommandLine: '安装命令行工具…',
  commandLineInstalled: 'ask-user 命令已安装',
  commandLineNotInstalled: 'ask-user 命令未能安装',
  checkForUpdates: '检查更新…',
  upToDate: 'Ask User Companion 已是最新版本',
  updateDownloading: (v) => `有新版本 ${v}，正在下载`,
  updateReady: (v) => `新版本 ${v} 已下载`,
  updateInstallsOnQuit: '退出应用时安装，绝不会在有问题等待回答时安装。',
  updateFailed: '无法检查更新',
  noPending: '没有等待中的问题',
  pendingTooltip: (n) => (n === 0 ? 'Ask User Companion' : `Ask User Companion：${n} 个问题等待回答`),
  burst: (q, a) => `来自 ${a} 个代理的 ${q} 个问题`,
  reply: '回复',
  noLongerWaiting: '这个问题已不再等待回答，没有发送任何内容。',
  stillWaiting: '仍在等待回答（回复为空）：',
  unsignedTitle: '通知需要已签名的版本',
  unsignedDetail:
    '此 Ask User Companion 副本没有 Developer ID 签名，macOS 可能会悄无声息地丢弃它的通知。问题仍会显示在这里和菜单栏中。已签名的正式版本会显示通知，问题允许时还带按钮和回复。',
  quitTitle: '退出 Ask User Companion？',
  quitMessage: (n) => `还有 ${n} 个问题在等待你的回答。`,
  quitDetail: '退出后，等待中的代理会得知助手已离开；不会发送任何回答。',
  quitConfirm: '退出',
  cancel: '取消',
  openLinkMessage: (host) => `在浏览器中打开指向 ${host} 的链接？`,
  openLinkDetail: '此链接来自智能体。打开前请核对地址。',
  openLinkConfirm: '打开链接',
}

/**
 * The strings for the language setting; `system` follows the OS locale (`app.getLocale()`, e.g.
 * `zh-CN`): Chinese for any `zh*` locale, English otherwise.
 */
export function stringsFor(language: Settings['language'], systemLocale: string): Strings {
  const lang = language === 'system' ? (systemLocale.toLowerCase().startsWith('zh') ? 'zh' : 'en') : language
  return lang === 'zh' ? zh : en
}
