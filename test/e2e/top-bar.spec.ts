// The top bar at phone widths (the newcomer review's L4: at 390 px it wrapped into three ragged rows).
// At 390 and 360 px it is two deliberate rows, the state above (logo, count, alerts, connection) and
// where to go below (the views, the language), nothing overlapping or off screen; wide, it is one row.
import type { Page } from '@playwright/test'
import { zh } from '../../renderer/src/i18n/messages-zh'
import { expect, test } from './support/fixtures'

const APP_TITLE_ZH = zh.appTitle

interface Box {
  name: string
  x: number
  y: number
  width: number
  height: number
}

/** The boxes of what a person sees and uses in the top bar, each named. */
async function topBarBoxes(page: Page): Promise<Box[]> {
  const bar = page.locator('header.top')
  const parts = {
    logo: bar.getByTestId('logo'),
    count: bar.getByTestId('pending-count'),
    notify: bar.getByTestId('notify-me'),
    sound: bar.getByTestId('alert-sound'),
    status: bar.getByTestId('connection-status'),
    inbox: bar.getByRole('button', { name: 'Inbox' }).or(bar.getByRole('button', { name: '收件箱' })),
    history: bar.getByRole('button', { name: 'History' }).or(bar.getByRole('button', { name: '历史' })),
    connect: bar.getByRole('button', { name: 'Connect an agent' }).or(bar.getByRole('button', { name: '连接智能体' })),
    language: bar.getByRole('combobox'),
  }
  const boxes: Box[] = []
  for (const [name, locator] of Object.entries(parts)) {
    const box = await locator.boundingBox()
    expect(box, `${name} is on screen`).not.toBeNull()
    boxes.push({ name, ...box! })
  }
  return boxes
}

/** Groups boxes into rows by their vertical middle (a row: middles within 12 px), each row left to right. */
function rows(boxes: Box[]): string[][] {
  const sorted = [...boxes].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2))
  const result: { middle: number; boxes: Box[] }[] = []
  for (const box of sorted) {
    const middle = box.y + box.height / 2
    const row = result.find((r) => Math.abs(r.middle - middle) <= 12)
    if (row) row.boxes.push(box)
    else result.push({ middle, boxes: [box] })
  }
  return result.map((row) => row.boxes.sort((a, b) => a.x - b.x).map((box) => box.name))
}

function overlapping(boxes: Box[]): string[] {
  const found: string[] = []
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
      if (!apart) found.push(`${a.name} × ${b.name}`)
    }
  }
  return found
}

for (const size of [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
]) {
  for (const lang of ['English', '中文']) {
    test(`${size.width} × ${size.height}, ${lang}: the top bar is two tidy rows, nothing overlapping or off screen`, async ({
      page,
      agent,
      openInbox,
    }) => {
      await page.setViewportSize(size)
      await openInbox(page)
      await page.getByRole('combobox').selectOption(lang)
      const asker = agent('Codex')
      for (const n of [1, 2, 3]) void asker.ask([{ id: `q${n}`, question: `Question ${n}?` }])
      // (At these widths the list is folded to one line, and not built: the count says all three are in.)
      await expect(page.getByTestId('pending-count')).toContainText('3')
      const boxes = await topBarBoxes(page)
      expect(overlapping(boxes)).toEqual([])
      for (const box of boxes) {
        expect(box.x, `${box.name} starts on screen`).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, `${box.name} ends on screen`).toBeLessThanOrEqual(size.width)
      }
      expect(rows(boxes)).toEqual([
        ['logo', 'count', 'notify', 'sound', 'status'],
        ['inbox', 'history', 'connect', 'language'],
      ])
      const bar = await page.locator('header.top').boundingBox()
      expect(bar!.height).toBeLessThanOrEqual(90)
      // The connection's words stay for assistive technology; the name of the app too.
      await expect(page.getByTestId('connection-status')).toHaveText(lang === '中文' ? '已连接' : 'Connected')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        lang === '中文' ? APP_TITLE_ZH : 'Ask User Companion',
      )
    })
  }
}

test('1280 × 800: the top bar is one row', async ({ page, openInbox }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openInbox(page)
  const boxes = await topBarBoxes(page)
  expect(overlapping(boxes)).toEqual([])
  expect(rows(boxes)).toHaveLength(1)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
})
