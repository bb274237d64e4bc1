// The Markdown components in jsdom: the token map as elements, the plain fallback, literal labels and
// headers, hidden-character markers, image chips, link buttons and the in-page link confirmation.
import { cleanup, render, screen, within } from '@testing-library/svelte'
import { userEvent } from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import MarkdownText from '../../renderer/src/components/markdown/MarkdownText.svelte'
import LinkConfirm from '../../renderer/src/components/LinkConfirm.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { links } from '../../renderer/src/lib/links.svelte'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => {
  i18n.lang = 'en'
  sessionStorage.clear()
  links.use({})
  links.cancel()
})
afterEach(cleanup)

describe('MarkdownText', () => {
  it('block mode maps each allow-listed token to its element', () => {
    const { container } = render(MarkdownText, {
      props: {
        mode: 'block',
        text: '# Title\n\n- **a**\n- `b`\n\n> q\n\n```\ncode\n```\n\n---\n\n| h |\n|---|\n| c |',
      },
    })
    expect(container.querySelector('.md-heading.level-1')?.textContent).toBe('Title')
    const items = [...container.querySelectorAll('ul > li')]
    expect(items.map((li) => li.textContent)).toEqual(['a', 'b'])
    expect(items[0]?.querySelector('strong')?.textContent).toBe('a')
    expect(items[1]?.querySelector('code.md-code')?.textContent).toBe('b')
    expect(container.querySelector('blockquote p')?.textContent).toBe('q')
    expect(container.querySelector('pre code')?.textContent).toBe('code\n')
    expect(container.querySelectorAll('hr')).toHaveLength(1)
    expect(container.querySelector('td')?.textContent).toBe('c')
    expect(container.querySelectorAll('h1, h2, h3, a, img, script')).toHaveLength(0)
  })

  it('inline mode keeps line breaks and line-start syntax, and renders no blocks', () => {
    const { container } = render(MarkdownText, { props: { mode: 'inline', text: '# one\n  - two *em*' } })
    expect(container.textContent).toBe('# one\n  - two em')
    expect(container.querySelector('em')?.textContent).toBe('em')
    expect(container.querySelectorAll('p, ul, li, h1')).toHaveLength(0)
  })

  it('falls back to plain monospace text when too deep, keeping every character', () => {
    const text = `${'> '.repeat(40)}deep`
    render(MarkdownText, { props: { mode: 'block', text } })
    const plain = screen.getByTestId('md-plain')
    expect(plain.textContent).toBe(text)
    expect(plain.dataset['reason']).toBe('depth')
  })

  it('an image is a chip with alt text and host, and no <img>', () => {
    const { container } = render(MarkdownText, {
      props: { mode: 'inline', text: '![a chart](https://leak.example/x.png)' },
    })
    expect(screen.getByTestId('image-chip').textContent).toBe('Image (not loaded): a chart· leak.example')
    expect(container.querySelectorAll('img')).toHaveLength(0)
  })

  it('marks hidden characters in text and in code', () => {
    render(MarkdownText, { props: { mode: 'inline', text: 'a\u202Eb `c\u200Bd`' } })
    expect(screen.getAllByTestId('hidden-char').map((marker) => marker.textContent)).toEqual(['⟨U+202E⟩', '⟨U+200B⟩'])
  })
})

describe('links', () => {
  it('a link is a button without href; the page confirms with the full URL, then opens with noopener', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    render(MarkdownText, { props: { mode: 'inline', text: '[docs](https://ехample.com/a)' } })
    render(LinkConfirm)
    const user = userEvent.setup()
    const link = screen.getByTestId('md-link')
    expect(link.tagName).toBe('BUTTON')
    expect(link.getAttribute('href')).toBeNull()
    await user.click(link)
    expect(screen.getByTestId('link-url').textContent).toBe('https://xn--ample-ywe6i.com/a')
    expect(screen.getByTestId('link-confirm').textContent).toContain('Open a link to xn--ample-ywe6i.com?')
    await user.click(screen.getByTestId('link-open'))
    expect(open).toHaveBeenCalledWith('https://xn--ample-ywe6i.com/a', '_blank', 'noopener,noreferrer')
    expect(screen.queryByTestId('link-confirm')).toBeNull()
    open.mockRestore()
  })

  it('with a bridge that opens links (Electron), the page hands the URL over and shows nothing', async () => {
    const openLink = vi.fn()
    links.use({ openLink })
    render(MarkdownText, { props: { mode: 'inline', text: '[docs](https://example.com/a)' } })
    render(LinkConfirm)
    await userEvent.setup().click(screen.getByTestId('md-link'))
    expect(openLink).toHaveBeenCalledWith('https://example.com/a')
    expect(screen.queryByTestId('link-confirm')).toBeNull()
  })
})

describe('the question card', () => {
  it('renders detail as blocks, question text inline, header and labels literally', async () => {
    const ask = makeAsk({
      askId: 'md',
      questions: [
        {
          id: 'q',
          header: '**H**',
          question: 'Use `pnpm`?',
          detail: '1. first\n2. second',
          options: [{ label: '*literal*', description: 'costs **time**' }],
        },
      ],
    })
    await renderInbox([ask])
    const card = screen.getByTestId('question')
    expect(card.querySelector('.header')?.textContent).toBe('**H**')
    expect(card.querySelector('p.text code')?.textContent).toBe('pnpm')
    expect(
      [...within(card).getByTestId('question-detail').querySelectorAll('ol > li')].map((li) => li.textContent),
    ).toEqual(['first', 'second'])
    expect(within(card).getByTestId('option-label').textContent).toBe('*literal*')
    expect(card.querySelector('.desc strong')?.textContent).toBe('time')
  })

  it('a plan review puts Approve plan first and answers with the approve label', async () => {
    const ask = makeAsk({
      askId: 'plan',
      questions: [
        {
          id: 'p',
          question: 'Approve?',
          detail: '## Steps',
          options: [{ label: 'Yes, go' }, { label: 'No' }],
          intent: { kind: 'plan-review', approve: 'Yes, go' },
        },
      ],
    })
    const { bridge, user } = await renderInbox([ask])
    const card = screen.getByTestId('question')
    expect(
      within(card)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['No'])
    await user.click(within(card).getByTestId('approve-plan'))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toEqual([{ askId: 'plan', answers: [{ id: 'p', selected: ['Yes, go'] }] }])
  })
})
