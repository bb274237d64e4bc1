// Every picture the READMEs and docs/ show exists, and every window picture among them is one the
// e2e suite regenerates from `ask-user serve` (newcomer review M11: a broken connect.png, stale PNGs).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SCREENSHOTS } from '../../e2e/support/screenshot-names'

const ROOT = join(__dirname, '..', '..', '..')
const SCREENSHOT_DIR = join(ROOT, 'docs', 'screenshots')
const DOCS = [
  ...readdirSync(ROOT).filter((name) => /^README.*\.md$/.test(name)),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
]

/** The Markdown of `text` without fenced code and code spans, where `![alt](url)` is an example, not a picture. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

/** Each image of a doc: Markdown `![alt](target)` and HTML `<img src="target">`, with the line around it. */
function images(doc: string): { target: string; line: string }[] {
  const text = prose(readFileSync(join(ROOT, doc), 'utf8'))
  const found: { target: string; line: string }[] = []
  for (const line of text.split('\n')) {
    for (const match of line.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<img\s[^>]*src="([^"]+)"/g))
      found.push({ target: (match[1] ?? match[2])!, line })
  }
  return found
}

describe('images in README*.md and docs/*.md', () => {
  const all = DOCS.flatMap((doc) => images(doc).map((image) => ({ doc, ...image })))

  it('finds the pictures the docs show (the check looks at something)', () => {
    expect(all.map((image) => image.target)).toContain('screenshots/connect.png')
  })

  it('every image link resolves to a file in the repository', () => {
    const broken = all
      .filter(({ target }) => !/^https?:/.test(target))
      .filter(({ doc, target }) => !existsSync(join(ROOT, dirname(doc), decodeURI(target.split('#')[0]!))))
      .map(({ doc, target }) => `${doc}: ${target}`)
    expect(broken).toEqual([])
  })

  it('every window picture is one screenshots.spec.ts takes; any other picture is marked as an illustration', () => {
    const unmade = all
      .filter(({ doc, target }) => join(ROOT, dirname(doc), target).startsWith(SCREENSHOT_DIR))
      .filter(
        ({ target }) => !(SCREENSHOTS as readonly string[]).includes(target.replace(/^.*\//, '').replace(/\.png$/, '')),
      )
      .filter(({ line }) => !/illustration/i.test(line))
      .map(({ doc, target }) => `${doc}: ${target}`)
    expect(unmade).toEqual([])
  })

  it('docs/screenshots holds only pictures the spec regenerates', () => {
    const stale = readdirSync(SCREENSHOT_DIR)
      .filter((name) => name.endsWith('.png'))
      .filter((name) => !(SCREENSHOTS as readonly string[]).includes(name.replace(/\.png$/, '')))
      .map((name) => relative(ROOT, join(SCREENSHOT_DIR, name)))
    expect(stale).toEqual([])
  })
})
