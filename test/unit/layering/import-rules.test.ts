import { join } from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// The layering (README "Layout") is enforced by eslint's import rules; these cases prove each rule bites,
// using the project's own eslint.config.mjs on virtual files placed in each layer.
const root = join(import.meta.dirname, '..', '..', '..')
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

describe('layering import rules', () => {
  it.each([
    ['shared/x.ts', "import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n"],
    ['shared/x.ts', "import { WebSocket } from 'ws'\nexport const x = WebSocket\n"],
    ['shared/x.ts', "import { app } from 'electron'\nexport const x = app\n"],
    ['renderer/src/x.ts', "import { join } from 'node:path'\nexport const x = join\n"],
    ['renderer/src/x.ts', "import { startCompanion } from '../../core/index'\nexport const x = startCompanion\n"],
    ['core/x.ts', "import { app } from 'electron'\nexport const x = app\n"],
    ['core/x.ts', "import { AskUserClient } from '../agent/client'\nexport const x = AskUserClient\n"],
    ['core/x.ts', "import { setupTray } from '../electron/main/tray'\nexport const x = setupTray\n"],
    ['agent/x.ts', "import { startCompanion } from '../core/index'\nexport const x = startCompanion\n"],
    ['agent/x.ts', "import { app } from 'electron'\nexport const x = app\n"],
    ['electron/preload/x.ts', "import { WebSocket } from 'ws'\nexport const x = WebSocket\n"],
    // integrations/ is runtime-free and, of ours, imports only shared/; the contract and the agent side never import it.
    ['integrations/x.ts', "import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n"],
    ['integrations/x.ts', "import { startCompanion } from '../core/index'\nexport const x = startCompanion\n"],
    ['integrations/x.ts', "import { EXIT } from '../cli/io'\nexport const x = EXIT\n"],
    ['integrations/x.ts', "import { AskUserClient } from '../agent/client'\nexport const x = AskUserClient\n"],
    ['shared/x.ts', "import { HARNESSES } from '../integrations/index'\nexport const x = HARNESSES\n"],
    ['agent/x.ts', "import { HARNESSES } from '../integrations/index'\nexport const x = HARNESSES\n"],
    ['core/x.ts', "import { HARNESSES } from '../integrations/index'\nexport const x = HARNESSES\n"],
    ['core/x.ts', "import { RelayDesk } from '../relay/exchange'\nexport const x = RelayDesk\n"],
    ['core/relay-bridge/x.ts', "import { openQuestion } from '../../relay/crypto'\nexport const x = openQuestion\n"],
    ['core/relay-bridge/x.ts', "import { run } from '../../cli/commands/relay'\nexport const x = run\n"],
    ['electron/preload/x.ts', "import { HARNESSES } from '../../integrations/index'\nexport const x = HARNESSES\n"],
  ])('%s may not import: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toHaveLength(1)
  })

  it.each([
    ['shared/x.ts', "import { z } from 'zod'\nexport const x = z\n"],
    ['core/x.ts', "import { WebSocket } from 'ws'\nimport { z } from 'zod'\nexport const x = [WebSocket, z]\n"],
    ['core/relay-bridge/x.ts', "import { RelayDesk } from '../../relay/exchange'\nexport const x = RelayDesk\n"],
    [
      'core/relay-bridge/x.ts',
      "import { loadDeskIdentity } from '../../relay/home/desk-identity'\nexport const x = loadDeskIdentity\n",
    ],
    ['core/x.ts', "import { startRelayBridge } from './relay-bridge/start'\nexport const x = startRelayBridge\n"],
    ['cli/x.ts', "import { startCompanion } from '../core/index'\nexport const x = startCompanion\n"],
    ['electron/main/x.ts', "import { app } from 'electron'\nexport const x = app\n"],
    [
      'integrations/x.ts',
      "import { z } from 'zod'\nimport type { ConnectInfo } from '../shared/connect'\nexport const x = (info: ConnectInfo) => [z, info]\n",
    ],
    ['cli/x.ts', "import { HARNESSES } from '../integrations/index'\nexport const x = HARNESSES\n"],
    // The agent side asks through the relay (agent/relay-asker.ts; cli/ through agent/ and relay/ itself).
    ['agent/x.ts', "import { openRemoteAsker } from '../relay/exchange'\nexport const x = openRemoteAsker\n"],
    ['cli/x.ts', "import { openRemoteAsker } from '../relay/exchange'\nexport const x = openRemoteAsker\n"],
    ['renderer/src/x.ts', "import { HARNESSES } from '../../integrations/index'\nexport const x = HARNESSES\n"],
  ])('%s may import: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([])
  })

  it('refuses {@html} in Svelte components (agent text is always text)', async () => {
    const [result] = await eslint.lintText('<script lang="ts">\n  let html = $state("")\n</script>\n{@html html}\n', {
      filePath: join(root, 'renderer/src/X.svelte'),
    })
    expect(result?.messages.map((m) => m.ruleId)).toContain('svelte/no-at-html-tags')
  })
})
