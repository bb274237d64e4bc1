import type { MessageKey } from '../i18n/messages'

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string

/** How long an ask has waited, e.g. "waiting 3 min"; `ms` is elapsed milliseconds (negative = 0). */
export function formatWaiting(ms: number, t: Translate): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 5) return t('justNow')
  if (seconds < 60) return t('waitingSeconds', { n: seconds })
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return t('waitingMinutes', { n: minutes })
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return t('waitingHours', { h: hours, m: minutes % 60 })
  return t('waitingDays', { n: Math.floor(hours / 24) })
}

/** A local date and time for history entries, in the UI language. */
export function formatTime(epochMs: number, lang: string): string {
  return new Date(epochMs).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  })
}
