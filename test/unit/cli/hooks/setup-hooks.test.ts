// `ask-user setup <harness> --hooks` in a fresh HOME beside a hook of the person's own, with each
// harness's real CLI from the published-client cache (its own `mcp add` runs first). Codex's own
// app-server must list the hooks it wrote; the opencode plugin is loaded and driven with a real
// companion. No login, no model. Where npm cannot install a client, its tests are skipped.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HARNESS_BY_ID } from '../../../../integrations/index'
import { startCodexAppServer } from '../../../helpers/codex-app-server'
import { startTestCompanion } from '../../../helpers/companion'
import { installPublished, type Installed } from '../../../helpers/published-client'
import { runProcess } from '../../../helpers/run-process'
import { connectUi } from '../../../helpers/ui-client'
import { BIN, ensureBuilt } from '../built-cli'

/** The harnesses with hooks, each installed at the version its record pins (`published`). */
const CLIENTS = { 'claude-code': HARNESS_BY_ID['claude-code'].published, codex: HARNESS_BY_ID.codex.published, gemini: HARNESS_BY_ID.gemini.published, opencode: HARNESS_BY_ID.opencode.published }
const installed = new Map<string, Installed>()
for (const [name, client] of Object.entries(CLIENTS)) installed.set(name, await installPublished(client))

const SETTINGS: Record<'claude-code' | 'codex' | 'gemini', string> = {
  'claude-code': '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
}
const EVENTS: Record<'claude-code' | 'codex' | 'gemini', [string, string | undefined, number][]> = {
  'claude-code': [['PermissionRequest', '*', 86400], ['PreToolUse', 'AskUserQuestion', 86400], ['Notification', undefined, 30], ['Stop', undefined, 30]],
  codex: [['PermissionRequest', undefined, 600], ['Stop', undefined, 30]],
  gemini: [['BeforeTool', '^(run_shell_command|write_file|replace|web_fetch)$', 600_000], ['Notification', undefined, 30_000]],
}
const mine = { hooks: [{ type: 'command', command: 'notify-send agent' }] }

beforeAll(() => ensureBuilt(), 120_000)

interface World {
  home: string
  project: string
  env: Record<string, string>
  setup(...flags: string[]): ReturnType<typeof runProcess>
}

async function world(name: keyof typeof CLIENTS): Promise<World> {
  const home = await mkdtemp(join(tmpdir(), `ask-user-hooks-${name}-home-`))
  const project = await mkdtemp(join(tmpdir(), `ask-user-hooks-${name}-project-`))
  const got = installed.get(name)!
  const env = { HOME: home, PATH: [got.ok ? got.binDir : '', dirname(process.execPath), '/usr/bin', '/bin'].join(':'), LANG: 'C.UTF-8' }
  return { home, project, env, setup: (...flags) => runProcess(process.execPath, [BIN, 'setup', name, ...flags], project, env) }
}

for (const name of ['claude-code', 'codex', 'gemini'] as const) {
  const got = installed.get(name)!
  describe.skipIf(!got.ok)(`ask-user setup ${name} --hooks${got.ok ? '' : ` (skipped: ${got.reason})`}`, { timeout: 90_000 }, () => {
    let w: World
    beforeAll(async () => {
      w = await world(name)
      const file = join(w.home, SETTINGS[name])
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, `${JSON.stringify({ hooks: { Stop: [mine] } }, null, 2)}\n`)
    }, 60_000)
    afterAll(async () => {
      await rm(w.home, { recursive: true, force: true })
      await rm(w.project, { recursive: true, force: true })
    })
    const settings = async (): Promise<{ hooks?: Record<string, unknown[]> }> => JSON.parse(await readFile(join(w.home, SETTINGS[name]), 'utf8'))
    const command = (): string => `ASK_USER_HOME=${join(w.home, '.config', 'ask-user-companion')} ${BIN} hook ${name}`

    it('adds our hook groups beside the person’s own, then has nothing to change', async () => {
      const first = await w.setup('--hooks')
      expect(first.code).toBe(0)
      for (const [event] of EVENTS[name]) expect(first.stdout).toContain(`${join(w.home, SETTINGS[name])}: set the ask-user hook in hooks.${event}\n`)
      const hooks = (await settings()).hooks!
      for (const [event, matcher, timeout] of EVENTS[name]) {
        const ours = { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: command(), timeout }] }
        expect(hooks[event]).toEqual(event === 'Stop' ? [mine, ours] : [ours])
      }
      const again = await w.setup('--hooks')
      expect(again.stdout.split('\n')[0]).toBe('already set up: nothing to change')
    })

    if (name === 'codex') {
      it("Codex's own app-server lists the hooks it will ask the person to trust", async () => {
        if (!got.ok) throw new Error(got.reason)
        const server = await startCodexAppServer(got.command, w.env, w.project)
        try {
          type Listed = { data: { hooks: { eventName: string; command: string; timeoutSec: number; trustStatus: string }[]; errors: unknown[] }[] }
          const [entry] = ((await server.request('hooks/list', { cwds: [w.project] })) as Listed).data
          expect(entry!.errors).toEqual([])
          const ours = entry!.hooks.filter((hook) => hook.command === command()).map(({ eventName, timeoutSec, trustStatus }) => ({ eventName, timeoutSec, trustStatus }))
          // Parsed as written, and waiting for the person's trust in /hooks (setup's note says so).
          expect(ours).toEqual([
            { eventName: 'permissionRequest', timeoutSec: 600, trustStatus: 'untrusted' },
            { eventName: 'stop', timeoutSec: 30, trustStatus: 'untrusted' },
          ])
        } finally {
          server.close()
        }
      })
    }

    it('--remove --hooks takes out only ours', async () => {
      const removed = await w.setup('--remove', '--hooks')
      expect(removed.code).toBe(0)
      expect((await settings()).hooks).toEqual({ Stop: [mine] })
    })
  })
}

describe('ask-user setup opencode --hooks: the plugin', { timeout: 60_000 }, () => {
  const got = installed.get('opencode')!
  it.skipIf(!got.ok)('writes the plugin; loaded with a client, it answers permission.asked from the inbox', async () => {
    const w = await world('opencode')
    const tc = await startTestCompanion({ home: join(w.home, '.config', 'ask-user-companion') })
    const ui = await connectUi(tc.companion)
    try {
      const result = await w.setup('--hooks')
      expect(result.code).toBe(0)
      const file = join(w.home, '.config', 'opencode', 'plugin', 'ask-user.js')
      expect(result.stdout).toContain(`${file}: wrote the ask-user plugin\n`)
      const replies: unknown[] = []
      const client = { permission: { reply: async (body: unknown) => void replies.push(body) }, question: { reply: async (body: unknown) => void replies.push(body) } }
      const plugin = (await import(pathToFileURL(file).href)) as { AskUserCompanion: (input: unknown) => Promise<{ event: (e: unknown) => Promise<void> }> }
      const hooks = await plugin.AskUserCompanion({ client, directory: w.project })
      const event = { type: 'question.asked', properties: { id: 'que_1', sessionID: 'ses_1', questions: [{ question: 'Which?', header: 'Pick', options: [{ label: 'A', description: 'a' }, { label: 'B', description: 'b' }] }] } }
      const handled = hooks.event({ event })
      const ask = await ui.nextAsk(undefined, 15_000)
      expect(ask.agent).toMatchObject({ name: 'opencode', cwd: w.project })
      await ui.answer(ask.askId, [{ id: 'q1', selected: ['B'] }])
      await handled
      expect(replies).toEqual([{ requestID: 'que_1', answers: [['B']] }])
      expect((await w.setup('--remove', '--hooks')).stdout).toContain(`${file}: removed the ask-user plugin\n`)
    } finally {
      await ui.close()
      await tc.cleanup()
      await rm(w.home, { recursive: true, force: true })
      await rm(w.project, { recursive: true, force: true })
    }
  })
})
