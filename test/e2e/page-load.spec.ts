// The question window as `ask-user serve` delivers it to Chromium: a clean console on load, a tab
// icon, and a CSP built for its delivery (newcomer review L5).
import { execFileSync } from 'node:child_process'
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

/** On Linux, whether fontconfig knows a Chinese font (CI installs fonts-wqy-microhei); elsewhere the OS ships one. */
function hasChineseFont(): boolean {
  if (process.platform !== 'linux') return true
  try {
    return execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim() !== ''
  } catch {
    return false
  }
}

test('Chinese question text and option labels render bold with the fonts of this machine', async ({
  page,
  agent,
  openInbox,
}) => {
  test.skip(
    !hasChineseFont(),
    'no Chinese font on this machine (fc-list :lang=zh is empty): install fonts-wqy-microhei',
  )
  await openInbox(page)
  void agent('通义灵码').ask([
    { id: 'pay', question: '支付回调需要重试机制', options: [{ label: '消息队列' }, { label: '定时任务' }] },
  ])
  await expect(page.getByTestId('question')).toBeVisible()
  /** Dark pixels of `text` drawn in the font of `selector` at its own weight and at 400 (canvas text takes the page's fonts). */
  const ink = (selector: string) =>
    page.evaluate(
      ([selector, text]) => {
        const style = getComputedStyle(document.querySelector(selector)!)
        const count = (weight: string): number => {
          const canvas = document.createElement('canvas')
          canvas.width = 400
          canvas.height = 60
          const context = canvas.getContext('2d')!
          context.font = `${weight} ${style.fontSize} ${style.fontFamily}`
          context.fillText(text, 4, 40)
          const pixels = context.getImageData(0, 0, 400, 60).data
          let dark = 0
          for (let at = 3; at < pixels.length; at += 4) if (pixels[at]! > 128) dark++
          return dark
        }
        return { weight: style.fontWeight, own: count(style.fontWeight), regular: count('400') }
      },
      [selector, '支付回调需要重试机制'] as const,
    )
  for (const selector of ['[data-testid="question"] .text', '[data-testid="option-label"]']) {
    const measured = await ink(selector)
    expect(Number(measured.weight), selector).toBeGreaterThanOrEqual(600)
    expect(measured.own, `${selector} draws bolder than regular`).toBeGreaterThan(measured.regular * 1.1)
  }
})
