// Playwright fixtures: a real companion core serving the built renderer, real agents (the client
// library) connected to it, and pages in Chromium opened on the companion's own URL.
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import { AskUserClient, validateAsk, type AskOptions } from '../../../agent'
import type { AskAnswer } from '../../../shared/answer'
import type { Question } from '../../../shared/tool-input'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { ensureRendererBuilt, RENDERER_DIR } from './build'

/** An agent connected with the client library; `ask` resolves to the answer or to the error. */
export interface TestAgent {
  client: AskUserClient
  /** Sends an ask; the returned promise never rejects (it resolves to the error instead). */
  ask(questions: Question[], options?: AskOptions): Promise<AskAnswer | { error: { code: string; message: string } }>
}

interface Fixtures {
  companion: TestCompanion
  /** Connects a new agent (its own connection) under `name`. */
  agent: (name: string, info?: { cwd?: string; title?: string; session?: string }) => TestAgent
  /** Opens the inbox in `page` (or a new page) and waits for the UI channel to be open. */
  openInbox: (page: Page) => Promise<Page>
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
  companion: async ({}, use) => {
    ensureRendererBuilt()
    const companion = await startTestCompanion({ staticDir: RENDERER_DIR, writeDiscovery: false })
    await use(companion)
    await companion.cleanup()
  },
  agent: async ({ companion }, use) => {
    const clients: AskUserClient[] = []
    const env = { ASK_USER_URL: companion.companion.agentUrl, ASK_USER_TOKEN: companion.companion.token }
    await use((name, info = {}) => {
      const client = new AskUserClient({
        env,
        name,
        cwd: info.cwd ?? `/home/ada/src/${name}`,
        title: info.title,
        pid: 4000 + clients.length,
        ...(info.session !== undefined ? { session: info.session } : {}),
      })
      clients.push(client)
      return {
        client,
        ask: (questions, options) =>
          Promise.resolve()
            .then(() => client.ask(validateAsk({ questions }), options))
            .catch((error: { code: string; message: string }) => ({
              error: { code: error.code, message: error.message },
            })),
      }
    })
    await Promise.all(clients.map((client) => client.close()))
  },
  openInbox: async ({ companion }, use) => {
    const pages = new Set<Page>()
    await use(async (page) => {
      pages.add(page)
      await page.goto(companion.companion.windowLink())
      await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
      return page
    })
    // Close the windows before the companion (its graceful shutdown would wait for them).
    await Promise.all([...pages].map((page) => page.close()))
  },
})

export { expect }

/** Waits until the companion holds `count` pending asks (agents send asynchronously). */
export async function pendingCount(companion: TestCompanion, count: number): Promise<void> {
  await expect.poll(() => companion.companion.pending().length).toBe(count)
}

/** The shown ask's card. */
export const askView = (page: Page) => page.getByTestId('ask-view')

/** The card on screen, whichever kind it is: an ask's (`ask-view`) or an approval's (`approval-card`). */
export const shownCard = (page: Page) => page.locator('[data-testid="ask-view"], [data-testid="approval-card"]')

/**
 * Waits until `card` acts on decisions, and returns it. A card shown without the person's click on its
 * row (the window's first card, auto-advance, `[` `]`, a notification) ignores send, picks, digits and
 * Enter for 600 ms after it is painted, and shows its "arming" note until then (docs/ui.md, "The card
 * you see"). Assert the card's content first: a card that is still on its way out is armed already.
 */
export async function armed(card: Locator): Promise<Locator> {
  await expect(card).toBeVisible()
  await expect(card.getByTestId('arming')).toHaveCount(0)
  return card
}

/** Waits until the card on screen (ask or approval) acts on decisions; see {@link armed}. */
export const waitArmed = (page: Page): Promise<Locator> => armed(shownCard(page))
