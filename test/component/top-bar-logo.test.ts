// The top bar's mark is the app's, drawn as a picture: nothing in it looks or acts like a control
// (newcomer review L10: a "?" in a filled square read as a help button that did nothing).
import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, expect, it } from 'vitest'
import { renderInbox } from './setup'

afterEach(() => cleanup())

it('shows a hidden, unfocusable picture for the logo, and no "?" to click', async () => {
  await renderInbox([])
  const logo = screen.getByTestId('logo')
  expect(logo.tagName.toLowerCase()).toBe('svg')
  expect(logo.getAttribute('aria-hidden')).toBe('true')
  expect(logo.getAttribute('focusable')).toBe('false')
  expect(logo.closest('button, a, [role="button"], [tabindex]')).toBeNull()
  const banner = screen.getByRole('banner')
  expect(within(banner).queryByText('?')).toBeNull()
})
