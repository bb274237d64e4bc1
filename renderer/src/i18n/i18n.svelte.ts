import { en, type MessageKey, type Messages } from './messages'

/** The languages the UI speaks. */
export type Lang = 'en' | 'zh'

// English is always here; Chinese is a chunk of its own (messages-zh.ts), handed in by the window at
// start (provideMessages) and loaded by the phone when the person reads Chinese (I18n.ready / set).
const dictionaries: Partial<Record<Lang, Messages>> = { en }

/** Makes `messages` the dictionary of `lang` from now on (the window hands Chinese in before its first paint). */
export function provideMessages(lang: Lang, messages: Messages): void {
  dictionaries[lang] = messages
  i18n.loaded++
}

async function loadMessages(lang: Lang): Promise<void> {
  if (dictionaries[lang] !== undefined) return
  if (lang === 'zh') provideMessages('zh', (await import('./messages-zh')).zh)
}
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
  /** Counts dictionaries handed in, so texts shown before one arrived follow it. */
  loaded = $state(0)

  /** Resolves once the current language's messages are here (the phone waits for it before its first paint). */
  ready(): Promise<void> {
    return loadMessages(this.lang)
  }

  /** Switches the language (once its messages are here) and remembers the choice. */
  set(lang: Lang): void {
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, lang)
    } catch {
      // storage may be unavailable (private mode); the switch still applies to this page
    }
    if (dictionaries[lang] !== undefined) this.lang = lang
    else void loadMessages(lang).then(() => (this.lang = lang))
  }

  /** The message for `key` in the current language, with `{name}` placeholders filled from `params`. */
  t(key: MessageKey, params?: Record<string, string | number>): string {
    void this.loaded
    const template = (dictionaries[this.lang] ?? en)[key]
    if (!params) return template
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
  }
}

/** The page's one language state. */
export const i18n = new I18n()
