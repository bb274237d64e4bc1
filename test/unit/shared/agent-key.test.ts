import { describe, expect, it } from 'vitest'
import { agentKey, sameAgent } from '../../../shared/agent-key'

describe('agentKey', () => {
  const hook = { name: 'Claude Code', pid: 41, cwd: '/src/app', title: 'session 3f2a9c1e', session: '3f2a9c1e-77aa' }
  it('one session of one harness is one agent, whatever its pid, folder or title', () => {
    expect(sameAgent(hook, { ...hook, pid: 42, cwd: '/src/app/web', title: 'other label' })).toBe(true)
  })
  it('another session, or another name with the same session, is another agent', () => {
    expect(sameAgent(hook, { ...hook, session: '9b1d' })).toBe(false)
    expect(sameAgent(hook, { ...hook, name: 'Codex' })).toBe(false)
  })
  it('without a session: one name in one folder is one agent, whatever its pid', () => {
    const script = { name: 'ask-user', pid: 100, cwd: '/srv/deploy' }
    expect(sameAgent(script, { ...script, pid: 101, title: 'run 2' })).toBe(true)
    expect(sameAgent(script, { ...script, cwd: '/srv/other' })).toBe(false)
    expect(sameAgent(script, { ...script, name: 'deploy-bot' })).toBe(false)
  })
  it('an empty session counts as none; a session never equals a folder of the same text', () => {
    expect(agentKey({ name: 'a', cwd: '/x', session: '' })).toBe(agentKey({ name: 'a', cwd: '/x' }))
    expect(agentKey({ name: 'a', session: '/x' })).not.toBe(agentKey({ name: 'a', cwd: '/x' }))
    expect(sameAgent(undefined, hook)).toBe(false)
  })
  it('keeps an absent field apart from text that looks like a separator', () => {
    expect(agentKey({ name: 'a', cwd: 'b' })).not.toBe(agentKey({ name: 'a\u0000b' }))
    expect(agentKey({ name: 'x' })).toBe(agentKey({ name: 'x', cwd: undefined }))
  })
})
