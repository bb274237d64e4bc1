// The hook's zod-free "no companion" check (cli/hooks/no-companion.ts) says exactly what the client's
// discovery says when there is no companion, and steps aside whenever one may be running.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discoverEndpoint } from '../../../../agent/discovery'
import { noCompanionReason } from '../../../../cli/hooks/no-companion'
import { ENDPOINT_FILE } from '../../../../shared/endpoint'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ask-user-no-companion-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const discoveryMessage = (env: NodeJS.ProcessEnv): Promise<string> =>
  discoverEndpoint(env, 'linux').then(
    () => 'found',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  )

describe('noCompanionReason', () => {
  it.each([
    ['ASK_USER_HOME', (d: string) => ({ ASK_USER_HOME: join(d, 'home') })],
    ['the XDG default', (d: string) => ({ HOME: d, XDG_CONFIG_HOME: join(d, 'config') })],
    ['a blank ASK_USER_URL', (d: string) => ({ ASK_USER_URL: ' ', ASK_USER_HOME: d })],
  ])("with no discovery file (%s): the message of the client's discovery", async (_name, envOf) => {
    const env = envOf(dir)
    const reason = await noCompanionReason(env, 'linux')
    expect(reason).toMatch(
      /^no Ask User Companion is running \(no endpoint\.json in .+\); start the Ask User Companion app, or run `ask-user serve`$/,
    )
    expect(reason).toBe(await discoveryMessage(env))
  })

  it('steps aside when a discovery file exists, even an invalid one (the client judges it)', async () => {
    await writeFile(join(dir, ENDPOINT_FILE), 'not json', { mode: 0o600 })
    try {
      expect(await noCompanionReason({ ASK_USER_HOME: dir }, 'linux')).toBeUndefined()
      expect(await discoveryMessage({ ASK_USER_HOME: dir })).toMatch(/is not valid/)
    } finally {
      await rm(join(dir, ENDPOINT_FILE))
    }
  })

  it('steps aside when ASK_USER_URL is set', async () => {
    expect(
      await noCompanionReason({ ASK_USER_URL: 'ws://127.0.0.1:9/v1/agent', ASK_USER_HOME: join(dir, 'none') }, 'linux'),
    ).toBeUndefined()
  })
})
