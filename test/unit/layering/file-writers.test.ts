import { join } from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// Files are ours or refused: product code writes files only through core/private-files.ts (and its
// -sync twin). These cases prove the lint rule bites, with the project's own eslint.config.mjs on
// virtual files in each product folder, and that reads and the module itself stay allowed.
const root = join(import.meta.dirname, '..', '..', '..')
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

async function fileWriteFindings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) })
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message)
}

describe('node:fs writers only in core/private-files', () => {
  it.each([
    ['core/x.ts', "import { writeFile } from 'node:fs/promises'\nexport const x = writeFile\n"],
    ['core/x.ts', "import { appendFile } from 'fs/promises'\nexport const x = appendFile\n"],
    ['cli/x.ts', "import { mkdirSync } from 'node:fs'\nexport const x = mkdirSync\n"],
    ['cli/askpass/x.ts', "import { writeFileSync } from 'fs'\nexport const x = writeFileSync\n"],
    ['electron/main/x.ts', "import { rename } from 'node:fs/promises'\nexport const x = rename\n"],
    ['agent/x.ts', "import { createWriteStream } from 'node:fs'\nexport const x = createWriteStream\n"],
    ['agent/x.ts', "import * as fs from 'node:fs'\nexport const x = fs\n"],
    ['core/x.ts', "import fs from 'node:fs/promises'\nexport const x = fs\n"],
    ['core/x.ts', "export const x = () => import('node:fs')\n"],
    ['bin/x.js', "'use strict'\nconst fs = require('node:fs')\nmodule.exports = fs\n"],
    ['bin/x.js', "'use strict'\nconst { writeFileSync } = require('node:fs')\nmodule.exports = writeFileSync\n"],
  ])('%s may not write files directly: %s', async (file, code) => {
    const findings = await fileWriteFindings(file, code)
    expect(findings.length).toBeGreaterThan(0)
    for (const finding of findings) expect(finding).toContain('core/private-files.ts')
  })

  it.each([
    ['core/private-files.ts', "import { writeFile } from 'node:fs/promises'\nexport const x = writeFile\n"],
    ['core/private-files-sync.ts', "import { renameSync } from 'node:fs'\nexport const x = renameSync\n"],
    ['cli/x.ts', "import { readFileSync, existsSync } from 'node:fs'\nexport const x = [readFileSync, existsSync]\n"],
    ['bin/x.js', "'use strict'\nconst { existsSync } = require('node:fs')\nmodule.exports = existsSync\n"],
    ['scripts/x.ts', "import { writeFileSync } from 'node:fs'\nexport const x = writeFileSync\n"],
  ])('%s may: %s', async (file, code) => {
    expect(await fileWriteFindings(file, code)).toEqual([])
  })
})
