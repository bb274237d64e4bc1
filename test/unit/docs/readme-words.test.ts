// The Chinese README speaks the window's words: a term the UI shows is the term the README uses
// (newcomer review M11: the README said 驳回 for a dismissal, the window says 忽略).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { en } from '../../../renderer/src/i18n/messages'
import { zh } from '../../../renderer/src/i18n/messages-zh'

const ROOT = join(__dirname, '..', '..', '..')
const readmeZh = readFileSync(join(ROOT, 'README.zh.md'), 'utf8')
const readmeEn = readFileSync(join(ROOT, 'README.md'), 'utf8')

describe('README.zh.md and the UI’s zh strings', () => {
  it('calls a dismissal what the window calls it, never a synonym', () => {
    expect(zh.dismiss).toBe('忽略')
    expect(readmeZh).toContain(zh.dismiss)
    for (const synonym of ['驳回', '取消回答', '拒答']) expect(readmeZh).not.toContain(synonym)
  })

  it('names the Connect panel by its tab, in both languages', () => {
    expect(readmeEn).toContain(`**${en.viewConnect}**`)
    expect(readmeZh).toContain(`“${zh.viewConnect}”`)
  })
})

describe('README’s Node story', () => {
  it('states the engines range package.json declares, in both languages', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines.node
    expect(engines).toBe('^20.19.0 || >=22.12.0')
    for (const readme of [readmeEn, readmeZh]) {
      expect(readme).toContain(`"engines": {"node": "${engines}"}`)
      expect(readme).toContain('EBADENGINE')
    }
  })
})
