// shared/ is the contract (README "Layout"): schemas, pure rules, Markdown. Set-up and MCP knowledge
// live elsewhere (integrations/, cli/mcp/), so no module of shared/ may import a module about them.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  )
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/\b(?:from|import) ?\(?['"]([^'"\n]*)['"]/g)].map((match) => match[1]!)
}

describe('shared/ imports nothing about set-up or MCP', () => {
  it('finds the imports it checks (the scan itself works)', () => {
    expect(
      specifiers("import { z } from 'zod'\nexport * from './connect'\nconst m = import('./x')\nimport './y'\n"),
    ).toEqual(['zod', './connect', './x', './y'])
  })

  it('no shared/ module names integrations/, a set-up module or an MCP module', () => {
    const offending = sources(join(root, 'shared')).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => /(^|\/)integrations(\/|$)|setup|mcp/i.test(specifier))
        .map((specifier) => `${relative(root, file)} imports ${specifier}`),
    )
    expect(offending).toEqual([])
  })
})
