// The window pictures test/e2e/screenshots.spec.ts takes (docs/screenshots/<name>.png), free of
// Playwright so that the unit test of the docs' image links can hold the docs to the same list.

/** Every picture the spec writes; a docs picture of the window that is not here is not regenerated. */
export const SCREENSHOTS = [
  'inbox-light',
  'inbox-dark',
  'multi-select',
  'history',
  'chinese',
  'connect',
  'approval-narrow',
  'not-signed-in',
  'disconnected',
] as const
export type ScreenshotName = (typeof SCREENSHOTS)[number]
