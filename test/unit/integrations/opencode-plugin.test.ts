// The opencode plugin is a real file, integrations/opencode/plugin.js: the bundles carry it (so the
// npm install and the packaged app, which ships out/main as resources/cli/main, have it), and
// `ask-user setup opencode --hooks` writes exactly its text with this install's command filled in.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runProcess } from '../../helpers/run-process'
import { BIN, ROOT, ensureBuilt } from '../cli/built-cli'

// eslint-disable-next-line @typescript-eslint/no-require-imports -- scripts/stage-cli.cjs is CommonJS, shared with scripts/dist.mjs
const { stageCli } = require('../../../scripts/stage-cli.cjs') as { stageCli: (root: string, staging: string) => void }

const SOURCE = join(ROOT, 'integrations', 'opencode', 'plugin.js')
const COMMAND_LINE = /^const COMMAND = .*$/m

let source: string
let staging: string
beforeAll(async () => {
  source = await readFile(SOURCE, 'utf8')
  await ensureBuilt()
  staging = await mkdtemp(join(tmpdir(), 'ask-user-staged-cli-'))
}, 120_000)
afterAll(async () => {
  if (staging) await rm(staging, { recursive: true, force: true })
})

/** The JavaScript files under `folder` whose text holds `needle` (JSON-escaped, as a bundler writes a string). */
async function filesHolding(folder: string, needle: string): Promise<string[]> {
  const escaped = JSON.stringify(needle).slice(1, -1)
  const names = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.js'))
  const hits: string[] = []
  for (const name of names) if ((await readFile(join(folder, name), 'utf8')).includes(escaped)) hits.push(name)
  return hits
}

describe('the opencode plugin ships with the CLI', () => {
  it('is in the built bundles and in the packaged app’s staged CLI', async () => {
    // All of the plugin but the command line, which the set-up fills in.
    const body = source.slice(source.search(COMMAND_LINE)).replace(COMMAND_LINE, '')
    expect(body.length).toBeGreaterThan(1000)
    expect(await filesHolding(join(ROOT, 'out', 'main'), body)).not.toEqual([])
    stageCli(ROOT, staging)
    expect(await filesHolding(join(staging, 'main'), body)).not.toEqual([])
  })
})

describe('ask-user setup opencode --hooks', () => {
  it('writes exactly integrations/opencode/plugin.js, with this install’s command as COMMAND', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ask-user-plugin-home-'))
    try {
      const env = { HOME: home, PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'), LANG: 'C.UTF-8' }
      const result = await runProcess(process.execPath, [BIN, 'setup', 'opencode', '--hooks'], home, env)
      expect(result.code).toBe(0)
      const file = join(home, '.config', 'opencode', 'plugin', 'ask-user.js')
      expect(result.stdout).toContain(`${file}: wrote the ask-user plugin\n`)
      const command = `ASK_USER_HOME=${join(home, '.config', 'ask-user-companion')} ${BIN} hook opencode`
      expect(await readFile(file, 'utf8')).toBe(
        source.replace(COMMAND_LINE, `const COMMAND = ${JSON.stringify(command)}`),
      )
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})
