import { describe, expect, it } from 'vitest'
import { childEnvironment, withInlineSecretsTakenOut } from '../../../cli/child-env'

describe('childEnvironment', () => {
  it('drops the agent token and the inline relay file, keeps their files and everything else, and leaves the original alone', () => {
    const env = {
      PATH: '/bin',
      ASK_USER_TOKEN: 'secret',
      ASK_USER_TOKEN_FILE: '/home/me/.t',
      ASK_USER_URL: 'ws://127.0.0.1:1/v1/agent',
      ASK_USER_RELAY: '{"v":1}',
      ASK_USER_RELAY_FILE: '/home/me/relay.json',
    }
    expect(childEnvironment(env)).toEqual({
      PATH: '/bin',
      ASK_USER_TOKEN_FILE: '/home/me/.t',
      ASK_USER_URL: 'ws://127.0.0.1:1/v1/agent',
      ASK_USER_RELAY_FILE: '/home/me/relay.json',
    })
    expect(env.ASK_USER_TOKEN).toBe('secret')
    expect(env.ASK_USER_RELAY).toBe('{"v":1}')
  })

  it('takes the inline relay file out of the process environment, leaving it only in the copy the command reads', () => {
    const processEnv: NodeJS.ProcessEnv = { PATH: '/bin', ASK_USER_RELAY: '{"v":1}', ASK_USER_TOKEN: 't' }
    const commandEnv = withInlineSecretsTakenOut(processEnv)
    expect(commandEnv).toEqual({ PATH: '/bin', ASK_USER_RELAY: '{"v":1}', ASK_USER_TOKEN: 't' })
    expect(processEnv).toEqual({ PATH: '/bin', ASK_USER_TOKEN: 't' })
  })
})
