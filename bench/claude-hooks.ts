// 8. Claude Code's hooks, per tool call: the real Claude Code binary (the version integrations/claude-code.ts
// pins, from the published-client cache) in a pseudo-terminal, a stand-in Messages API on 127.0.0.1
// whose model makes `calls` Bash calls in a row, each needing the person's permission; a scripted window
// allows each at once. Wall time per call, first call → last result, for:
// - floor: no hooks, the commands allowed by a rule (what Claude itself takes per call);
// - mcp_tool: `ask-user setup claude-code --hooks` as it ships (Claude calls the hook tool of the
//   `ask-user mcp` it runs);
// - command: the same set-up with the PermissionRequest hook as the command `ask-user hook claude-code`.
// Without a companion the hooks answer nothing and Claude shows its own dialog, which nobody here
// answers; so that case is measured on the hooks alone: `ask-user hook claude-code` spawned per event,
// and the hook tool called over one `ask-user mcp --claude-code-hooks` session.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { hookToolInput } from '../integrations/claude-code/hook-tool'
import { HOOK_TOOL_FLAG, HOOK_TOOL_NAME } from '../integrations/claude-code/hook-tool-names'
import { HARNESS_BY_ID } from '../integrations/index'
import { startMessagesStandIn, type MessagesStandIn } from '../test/helpers/model-stand-in'
import { installPublished } from '../test/helpers/published-client'
import { BASH_PERMISSION_REQUEST } from './startup'
import { closeSocket, openWindow, parse, type ServerChild } from './util'

export interface ClaudeHooksResult {
  version: string
  calls: number
  /** Milliseconds per tool call through Claude, with a companion that allows at once. */
  withCompanion: { floor: number; mcpTool: number; command: number }
  /** Milliseconds per hook event with no companion: the hook alone (see the header). */
  withoutCompanion: { mcpTool: number; command: number }
}

/** The stand-in model: `calls` Bash calls, then the end of the turn; resolves the wall time first call → last result. */
async function standInModel(calls: number): Promise<{ model: MessagesStandIn; perCall: Promise<number> }> {
  let first = 0
  let done: (ms: number) => void = () => undefined
  const perCall = new Promise<number>((resolve) => (done = resolve))
  const model = await startMessagesStandIn((results) => {
    const n = results.length
    if (n === 0 && first === 0) first = performance.now()
    if (n === calls) done((performance.now() - first) / calls)
    if (n >= calls) return undefined
    return {
      id: `toolu_${n}`,
      name: 'Bash',
      input: { command: `sh -c 'echo ${n} > call-${n}'`, description: `Call ${n}` },
    }
  })
  return { model, perCall }
}

type Variant = 'floor' | 'mcpTool' | 'command'

/** One Claude session of `calls` Bash calls under `variant`; milliseconds per call. */
async function claudeRun(
  variant: Variant,
  claude: { command: string; binDir: string },
  root: string,
  core: ServerChild,
  calls: number,
): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'bench-claude-home-'))
  const project = mkdtempSync(join(tmpdir(), 'bench-claude-project-'))
  const bin = join(root, 'bin', 'ask-user.js')
  const base = {
    HOME: home,
    PATH: [claude.binDir, dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    LANG: 'C.UTF-8',
  }
  const { model, perCall } = await standInModel(calls)
  const { ws: window } = await openWindow(core.info.uiUrl, core.info.windowToken)
  window.on('message', (data) => {
    const f = parse(data)
    if (f.type === 'question/added' && f.ask.approval)
      window.send(JSON.stringify({ type: 'decide', askId: f.ask.askId, decision: { behavior: 'allow' } }))
  })
  let session: ReturnType<typeof spawn> | undefined
  try {
    const setup = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, [bin, 'setup', 'claude-code', ...(variant === 'floor' ? [] : ['--hooks'])], {
        cwd: project,
        env: base,
        stdio: 'ignore',
      }).once('close', resolve),
    )
    if (setup !== 0) throw new Error(`ask-user setup claude-code exited ${setup}`)
    const settingsFile = join(home, '.claude', 'settings.json')
    mkdirSync(dirname(settingsFile), { recursive: true })
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
      permissions?: { allow?: string[] }
      hooks?: Record<string, unknown[]>
    }
    if (variant === 'floor')
      settings.permissions = { ...settings.permissions, allow: [...(settings.permissions?.allow ?? []), 'Bash(sh:*)'] }
    if (variant === 'command')
      settings.hooks!['PermissionRequest'] = [
        {
          matcher: '*',
          hooks: [{ type: 'command', command: `${process.execPath} ${bin} hook claude-code`, timeout: 86_400 }],
        },
      ]
    writeFileSync(settingsFile, JSON.stringify(settings))
    const key = 'sk-ant-test-0000000000000000000000'
    const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as Record<string, unknown>
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({
        ...state,
        hasCompletedOnboarding: true,
        theme: 'dark',
        customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
        projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
      }),
    )
    session = spawn('/usr/bin/script', ['-qfec', `${claude.command} --permission-mode default 'go'`, '/dev/null'], {
      cwd: project,
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {
        ...base,
        TERM: 'xterm',
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: key,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        ASK_USER_URL: core.info.agentUrl,
        ASK_USER_TOKEN: core.info.token,
      },
    })
    const limit = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${variant}: ${calls} calls not done in 180 s`)), 180_000).unref(),
    )
    return await Promise.race([perCall, limit])
  } finally {
    if (session?.pid !== undefined) {
      try {
        process.kill(-session.pid, 'SIGKILL')
      } catch {
        /* already gone */
      }
    }
    await model.close()
    await closeSocket(window)
    // Claude's processes may still be writing there as the kill lands: a folder left behind is no failure.
    for (const folder of [home, project])
      await rm(folder, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }).catch(() => undefined)
  }
}

/** The hooks alone with no companion: ms per event, spawning `ask-user hook` and calling the hook tool. */
async function withoutCompanion(root: string, events: number): Promise<ClaudeHooksResult['withoutCompanion']> {
  const lonely = mkdtempSync(join(tmpdir(), 'bench-claude-lonely-'))
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: lonely, ASK_USER_HOME: lonely }
  const bin = join(root, 'bin', 'ask-user.js')
  try {
    let t0 = performance.now()
    for (let i = 0; i < events; i++) {
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [bin, 'hook', 'claude-code'], {
          env,
          stdio: ['pipe', 'ignore', 'ignore'],
        })
        child.once('error', reject)
        child.once('close', () => resolve())
        child.stdin.end(JSON.stringify(BASH_PERMISSION_REQUEST))
      })
    }
    const command = (performance.now() - t0) / events
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', HOOK_TOOL_FLAG],
      env,
      stderr: 'ignore',
    })
    const client = new Client({ name: 'claude-code', version: 'bench' })
    await client.connect(transport)
    const args = Object.fromEntries(
      Object.entries(hookToolInput()).map(([key, template]) => {
        const value = (BASH_PERMISSION_REQUEST as Record<string, unknown>)[template.slice(2, -1)]
        return [key, value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)]
      }),
    )
    t0 = performance.now()
    for (let i = 0; i < events; i++) await client.callTool({ name: HOOK_TOOL_NAME, arguments: args })
    const mcpTool = (performance.now() - t0) / events
    await client.close()
    return { mcpTool, command }
  } finally {
    rmSync(lonely, { recursive: true, force: true })
  }
}

/** Runs the section; throws when Claude Code cannot be installed (the section is then `n/a`). */
export async function runClaudeHooks(
  core: ServerChild,
  opts: { calls: number; root: string },
): Promise<ClaudeHooksResult> {
  const published = HARNESS_BY_ID['claude-code'].published
  const claude = await installPublished(published)
  if (!claude.ok) throw new Error(claude.reason)
  const floor = await claudeRun('floor', claude, opts.root, core, opts.calls)
  const mcpTool = await claudeRun('mcpTool', claude, opts.root, core, opts.calls)
  const command = await claudeRun('command', claude, opts.root, core, opts.calls)
  return {
    version: published.version,
    calls: opts.calls,
    withCompanion: { floor, mcpTool, command },
    withoutCompanion: await withoutCompanion(opts.root, opts.calls),
  }
}
