// The documented way to put `ask-user` on PATH from a source checkout: `npm install -g <checkout>`
// (npm links the folder), then the command works from any folder.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, scratchDir } from '../../helpers/electron-stand-in'
import { ensureBuilt } from '../cli/built-cli'
import { rmSync } from 'node:fs'

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

describe.skipIf(process.platform === 'win32')('npm install -g <checkout>', () => {
  let prefix: string
  let project: string

  beforeAll(async () => {
    await ensureBuilt()
    prefix = scratchDir('global-prefix')
    project = scratchDir('some-project') // an agent's own project, far from the checkout
    const install = await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', ROOT], project, { HOME: prefix })
    expect(install.code, install.stderr).toBe(0)
  }, 60_000)

  afterAll(() => {
    rmSync(prefix, { recursive: true, force: true })
    rmSync(project, { recursive: true, force: true })
  })

  it('puts an ask-user on PATH that runs from any folder', async () => {
    const env = { HOME: project, PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}`, ASK_USER_HOME: join(project, '.ask-user') }
    const schema = await run('ask-user', ['schema'], project, env)
    expect(schema.code).toBe(0)
    expect(JSON.parse(schema.stdout).name).toBe('ask_user_question')
    const status = await run('ask-user', ['status'], project, env)
    expect(status.code).toBe(4) // no companion running: the command itself works
  })
})
