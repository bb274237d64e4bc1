import { expect, pendingCount, test } from './support/fixtures'
test('perf 1000', async ({ page, agent, openInbox, companion }) => {
  test.setTimeout(120_000)
  for (let a = 0; a < 20; a++) {
    const bot = agent(`agent-${a}`)
    for (let q = 0; q < 50; q++) void bot.ask([{ id: 'q', question: `A${a} Q${q}?`, options: [{ label: 'x' }, { label: 'y' }] }])
  }
  await pendingCount(companion, 1000)
  await page.addInitScript(() => {
    const O = window.WebSocket
    ;(window as any).__t = {}
    window.WebSocket = class extends O { constructor(u: any, p: any) { super(u, p); this.addEventListener('message', (e: MessageEvent) => { if (!(window as any).__t.snap) (window as any).__t.snap = performance.now() }) } } as any
    new MutationObserver(() => { if (!(window as any).__t.dom && document.querySelectorAll('[data-testid="ask-item"]').length >= 1000) (window as any).__t.dom = performance.now() }).observe(document, { subtree: true, childList: true })
  })
  for (let i = 0; i < 3; i++) {
    await openInbox(page)
    await expect(page.getByTestId('ask-item')).toHaveCount(1000)
    console.log(await page.evaluate(() => JSON.stringify((window as any).__t)), 'delta', await page.evaluate(() => (window as any).__t.dom - (window as any).__t.snap))
  }
  const t0 = Date.now()
  void agent('late').ask([{ id: 'q', question: 'late one?' }])
  await expect(page.getByTestId('ask-item')).toHaveCount(1001)
  console.log('add ms', Date.now() - t0)
})
