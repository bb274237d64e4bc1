import { en, zh, type MessageKey, type Messages } from './messages'

/** The languages the UI speaks. */
export type Lang = 'en' | 'zh'

const DICTIONARIES: Record<Lang, Messages> = { en, zh }
const STORAGE_KEY = 'ask-user.lang'

/** `zh` for any Chinese browser language (zh, zh-CN, zh-Hant-TW…), else `en`. */
export function langFromNavigator(language: string | undefined): Lang {
  return language?.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

function storedLang(): Lang | undefined {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY)
    return value === 'en' || value === 'zh' ? value : undefined
  } catch {
    return undefined
  }
}

/** The host's language setting, passed as `?lang=en|zh` by the desktop app. */
function hostLang(): Lang | undefined {
  try {
    const value = new URLSearchParams(globalThis.location?.search ?? '').get('lang')
    return value === 'en' || value === 'zh' ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * The current UI language: the person's choice in this window (kept in localStorage), else the
 * host's language setting (`?lang=`, the desktop app's settings), else the browser's language. `t` reads reactive state, so every text using it follows a switch.
 */
export class I18n {
  lang = $state<Lang>(storedLang() ?? hostLang() ?? langFromNavigator(globalThis.navigator?.language))

  /** Switches the language and remembers the choice. */
  set(lang: Lang): void {
    this.lang = lang
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, lang)
    } catch {
      // storage may be unavailable (private mode); the switch still applies to this page
    }
  }

  /** The message for `key` in the current language, with `{name}` placeholders filled from `params`. */
  t(key: MessageKey, params?: Record<string, string | number>): string {
    const template = DICTIONARIES[this.lang][key]
    if (!params) return template
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
  }
}

/** The page's one language state. */
export const i18n = new I18n()
