// The served page alerts like the desktop: a browser notification per new ask (the desktop's plain
// text), permission asked only from the person's click, and an optional sound kept in localStorage.
// `window.Notification` is replaced by an observer that counts permission requests and notifications.
import type { Page } from '@playwright/test'
import { expect, pendingCount, test } from './support/fixtures'

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const seen = { requests: 0, shown: [] as Array<{ title: string; body: string | undefined }> }
    class ObservedNotification {
      static permission: NotificationPermission = 'default'
      static async requestPermission(): Promise<NotificationPermission> {
        seen.requests += 1
        ObservedNotification.permission = 'granted'
        return 'granted'
      }
      onclick: (() => void) | null = null
      constructor(title: string, options?: NotificationOptions) {
        seen.shown.push({ title, body: options?.body })
      }
      close(): void {}
    }
    Object.assign(window, { Notification: ObservedNotification, notificationsSeen: seen })
    // The person is in another window: a new ask should reach them.
    document.hasFocus = () => false
  })
})

type Seen = { requests: number; shown: Array<{ title: string; body: string | undefined }> }
const seen = (page: Page): Promise<Seen> =>
  page.evaluate(() => (window as unknown as { notificationsSeen: Seen }).notificationsSeen)

test('permission is asked only from the click on "Notify me"; then each new ask notifies in plain text', async ({
  page,
  openInbox,
  agent,
  companion,
}) => {
  void agent('early').ask([{ id: 'q', question: 'Asked before the page opened?' }])
  await pendingCount(companion, 1)
  await openInbox(page)
  await expect(page.getByTestId('notify-me')).toBeVisible()
  expect(await seen(page)).toEqual({ requests: 0, shown: [] })

  await page.getByTestId('notify-me').click()
  await expect(page.getByTestId('notify-state')).toHaveText('Notifications on')
  await expect(page.getByTestId('notify-me')).toHaveCount(0)

  const hostile = agent('deploy\u202Ebot\u200B')
  void hostile.ask([{ id: 'q', header: 'Ship', question: 'Deploy **now**?' }])
  await expect
    .poll(async () => (await seen(page)).shown)
    .toEqual([{ title: 'deploy⟨U+202E⟩bot⟨U+200B⟩', body: 'Ship: Deploy now?' }])
  expect((await seen(page)).requests).toBe(1)
})

test('the sound is off by default, and the choice stays in localStorage across loads', async ({ page, openInbox }) => {
  await openInbox(page)
  const sound = page.getByTestId('alert-sound')
  await expect(sound).not.toBeChecked()
  expect(await page.evaluate(() => localStorage.getItem('ask-user.alert-sound'))).toBeNull()
  await sound.check()
  expect(await page.evaluate(() => localStorage.getItem('ask-user.alert-sound'))).toBe('1')
  await page.reload()
  await expect(page.getByTestId('alert-sound')).toBeChecked()
  expect((await seen(page)).requests).toBe(0)
})
