// The question window as `ask-user serve` delivers it to Chromium: a clean console on load, a tab
// icon, and a CSP built for its delivery (newcomer review L5).
import type { ConsoleMessage } from '@playwright/test'
import { expect, test } from './support/fixtures'

test('loads with no console errors or warnings, a favicon, and frame-ancestors only in the header', async ({
  page,
  openInbox,
  companion,
}) => {
  const noise: string[] = []
  const failed: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') noise.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => noise.push(`pageerror: ${error.message}`))
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`)
  })
  const pageResponse = page.waitForResponse((response) => new URL(response.url()).pathname === '/')
  await openInbox(page)
  const header = (await pageResponse).headers()['content-security-policy']
  expect(header).toContain("frame-ancestors 'none'")
  expect(header).not.toContain('[::1]')
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')
  expect(meta).not.toBeNull()
  expect(meta).not.toContain('frame-ancestors')
  expect(meta).not.toContain('[::1]')

  const icon = await page.locator('link[rel="icon"]').getAttribute('href')
  expect(icon).toBe('./favicon.svg')
  const base = new URL(companion.companion.windowLink()).origin
  const favicon = await page.request.get(new URL(icon!, `${base}/`).toString())
  expect(favicon.status()).toBe(200)
  expect(favicon.headers()['content-type']).toBe('image/svg+xml')
  expect(await favicon.text()).toMatch(/^<svg /)

  // The connection is open and the first render done; a render error would have been logged by now.
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  expect(noise).toEqual([])
  expect(failed).toEqual([])
})
