// A sandboxed preload's `require` knows only `electron`'s renderer modules and a few Node shims
// (`events`, `timers`, `url`; Electron's sandbox docs), so everything else the preload reaches must be
// bundled into it. This walks the preload's import graph and checks just that.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')

/** The modules imported for their values (type-only imports vanish from the bundle) by `file`. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return []
    const typeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true
      : statement.isTypeOnly
    const specifier = statement.moduleSpecifier
    return !typeOnly && specifier && ts.isStringLiteral(specifier) ? [specifier.text] : []
  })
}

/** Every bare module the code reachable from `entry` imports, with the file that imports it. */
function bareImports(entry: string): Map<string, string> {
  const found = new Map<string, string>()
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const specifier of valueImports(file)) {
      if (!specifier.startsWith('.')) {
        if (!found.has(specifier)) found.set(specifier, relative(root, file))
        continue
      }
      const base = resolve(dirname(file), specifier)
      const next = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
      if (!next) throw new Error(`cannot resolve ${specifier} from ${file}`)
      visit(next)
    }
  }
  visit(entry)
  return found
}

describe('the sandboxed preload', () => {
  it('requires nothing but electron: no Node module and no zod (main parses what the window sends)', () => {
    expect(Object.fromEntries(bareImports(join(root, 'electron/preload/index.ts')))).toEqual({
      electron: 'electron/preload/index.ts',
    })
    // Should a schema come back, electron-vite bundles it rather than leaving a require the sandbox refuses.
    expect(readFileSync(join(root, 'electron.vite.config.ts'), 'utf8')).toMatch(
      /preload:[\s\S]*externalizeDeps: \{ exclude: \['zod'\] \}/,
    )
  })

  it('the walk follows re-exports: the schemas module reaches zod', () => {
    expect(bareImports(join(root, 'shared/ipc.ts')).has('zod')).toBe(true)
  })
})
