// The accessibility check of the phone specs: no serious or critical axe violation on the page as it is
// now. Running transitions are awaited first: after a colour-scheme switch a button's background fades
// for a moment while its text has already changed, and axe would judge the contrast of that moment.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** Asserts that axe finds nothing serious or critical, naming each violation's rule and elements. */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)))
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
}
