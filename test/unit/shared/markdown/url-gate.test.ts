import { describe, expect, it } from 'vitest'
import { inspectUrl, linkHost, safeLinkUrl, urlWarnings } from '../../../../shared/markdown/url-gate'
import { renderInline } from '../../../../shared/markdown/parse'

describe('safeLinkUrl (absolute http and https only, protocol from new URL)', () => {
  it.each([
    ['https://example.com/a?b#c', 'https://example.com/a?b#c'],
    ['HTTP://EXAMPLE.com', 'http://example.com/'],
    ['https://例え.jp/パス', 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'],
    ['https://аpple.com/', 'https://xn--pple-43d.com/'],
  ])('accepts %s as %s', (raw, href) => {
    expect(safeLinkUrl(raw)).toBe(href)
  })

  it.each([
    'smb://attacker.example/share',
    'vscode://file/etc/passwd',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'mailto:a@b.c',
    'ftp://example.com/',
    '//example.com/relative',
    '/relative/path',
    'https://user:pass@example.com/',
    'https://user@example.com/',
    'not a url',
    '',
  ])('refuses %j', (raw) => {
    expect(safeLinkUrl(raw)).toBeUndefined()
  })

  it('punycodes the host a person is shown', () => {
    expect(linkHost('https://xn--pple-43d.com:8443/x')).toBe('xn--pple-43d.com:8443')
    expect(linkHost('https://ｅｘａｍｐｌｅ.com/')).toBe('example.com')
  })
})

describe('links in Markdown pass the gate or stay literal text', () => {
  it.each([
    ['[x](smb://host/share)'],
    ['[x](vscode://file/x)'],
    ['[x](file:///etc/passwd)'],
    ['[x](java&#9;script:alert(1))'],
    ['[x](&#106;avascript:alert(1))'],
    ['[x](javascript&colon;alert(1))'],
    ['[x](<javascript:alert(1)>)'],
    ['<javascript:alert(1)>'],
    ['<smb://host/share>'],
  ])('%s is not a link', (source) => {
    const rendered = renderInline(source)
    expect(rendered.kind).toBe('inline')
    if (rendered.kind === 'inline') expect(rendered.children.some((node) => node.type === 'link')).toBe(false)
  })

  it('an IDN link keeps its punycode href', () => {
    expect(renderInline('[pay](https://раypal.com/login)')).toEqual({
      kind: 'inline',
      children: [{ type: 'link', href: 'https://xn--ypal-43d9g.com/login', children: [{ type: 'text', text: 'pay' }] }],
    })
  })
})

describe('inspectUrl: the real host first, as approvals and the link dialog show it', () => {
  it('a user name before the @ is not the host: the host is what follows it', () => {
    const view = inspectUrl('https://github.com:443@evil.example/login?next=https://github.com/')
    expect(view).toMatchObject({ parsed: true, host: 'evil.example', userName: 'github.com', web: true })
    expect(urlWarnings(view)).toEqual([{ code: 'URL_USER_NAME', userName: 'github.com', host: 'evil.example' }])
  })

  it('a padded user name (the host pushed out of sight) still reads as the real host', () => {
    const raw = `https://accounts.google.com${'%2F'.repeat(40)}@xn--80ak6aa92e.com/`
    const view = inspectUrl(raw)
    expect(view).toMatchObject({ parsed: true, host: 'xn--80ak6aa92e.com' })
    expect(urlWarnings(view).map((w) => w.code)).toEqual(['URL_USER_NAME'])
  })

  it('a Cyrillic look-alike host is shown in punycode, with no user name warning', () => {
    const view = inspectUrl('https://аpple.com:8443/x')
    expect(view).toMatchObject({ parsed: true, host: 'xn--pple-43d.com:8443', web: true })
    expect(urlWarnings(view)).toEqual([])
  })

  it('a password alone counts as a user name', () => {
    expect(urlWarnings(inspectUrl('https://:secret@example.com/'))).toEqual([
      { code: 'URL_USER_NAME', userName: '', host: 'example.com' },
    ])
  })

  it('names a scheme other than http and https, and a URL the parser refuses', () => {
    expect(urlWarnings(inspectUrl('file:///etc/passwd'))).toEqual([{ code: 'URL_NOT_WEB', scheme: 'file' }])
    expect(urlWarnings(inspectUrl('not a url'))).toEqual([{ code: 'URL_UNREADABLE' }])
    expect(linkHost('not a url')).toBe('')
  })
})
