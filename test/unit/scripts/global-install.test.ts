// The documented way to put `ask-user` on PATH from a source checkout: `npm install -g <checkout>`
// (npm links the folder), then the command works from any folder.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, scratchDir } from '../../helpers/electron-stand-in'
import { runProcess } from '../../helpers/run-process'
import { ensureBuilt } from '../cli/built-cli'
import { rmSync } from 'node:fs'

describe.skipIf(process.platform === 'win32')('npm install -g <checkout>', () => {
  let prefix: string
  let project: string

  beforeAll(async () => {
    await ensureBuilt()
    prefix = scratchDir('global-prefix')
    project = scratchDir('some-project') // an agent's own project, far from the checkout
    const install = await runProcess(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', ROOT],
      project,
      { HOME: prefix },
    )
    expect(install.code, install.stderr).toBe(0)
  }, 60_000)

  afterAll(() => {
    rmSync(prefix, { recursive: true, force: true })
    rmSync(project, { recursive: true, force: true })
  })

  it('puts an ask-user on PATH that runs from any folder', async () => {
    const env = {
      HOME: project,
      PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}`,
      ASK_USER_HOME: join(project, '.ask-user'),
    }
    const schema = await runProcess('ask-user', ['schema'], project, env)
    expect(schema.code).toBe(0)
    expect(JSON.parse(schema.stdout).name).toBe('ask_user_question')
    const status = await runProcess('ask-user', ['status'], project, env)
    expect(status.code).toBe(4) // no companion running: the command itself works
  })
})
