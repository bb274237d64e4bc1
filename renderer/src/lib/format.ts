import type { MessageKey } from '../i18n/messages'

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string

/** The message keys of one way of saying an elapsed time, unit by unit. */
interface ElapsedWords {
  seconds: MessageKey
  minutes: MessageKey
  hours: MessageKey
  days: MessageKey
}

/** `ms` elapsed (negative = 0) in the largest unit that fits, in `words`; under 5 s is "just now". */
function formatElapsed(ms: number, words: ElapsedWords, t: Translate): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 5) return t('justNow')
  if (seconds < 60) return t(words.seconds, { n: seconds })
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return t(words.minutes, { n: minutes })
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return t(words.hours, { h: hours, m: minutes % 60 })
  return t(words.days, { n: Math.floor(hours / 24) })
}

const WAITING: ElapsedWords = {
  seconds: 'waitingSeconds',
  minutes: 'waitingMinutes',
  hours: 'waitingHours',
  days: 'waitingDays',
}
const AGO: ElapsedWords = { seconds: 'agoSeconds', minutes: 'agoMinutes', hours: 'agoHours', days: 'agoDays' }

/** How long an ask has waited, e.g. "waiting 3 min"; `ms` is elapsed milliseconds (negative = 0). */
export function formatWaiting(ms: number, t: Translate): string {
  return formatElapsed(ms, WAITING, t)
}

/** How long ago something happened (a notice), in the units of {@link formatWaiting}: "3 min ago". */
export function formatAgo(ms: number, t: Translate): string {
  return formatElapsed(ms, AGO, t)
}

/** A local date and time for history entries, in the UI language. */
export function formatTime(epochMs: number, lang: string): string {
  return new Date(epochMs).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  })
}
