import { describe, expect, it } from 'vitest'
import { agentKey, sameAgent } from '../../../shared/agent-key'

describe('agentKey', () => {
  const agent = { name: 'Claude Code', pid: 41, cwd: '/src/app', title: 'refactor' }
  it('tells agents apart by name, pid, cwd and title', () => {
    expect(sameAgent(agent, { ...agent })).toBe(true)
    for (const other of [
      { ...agent, name: 'Codex' },
      { ...agent, pid: 42 },
      { ...agent, cwd: '/src/other' },
      { ...agent, title: 'tests' },
    ]) {
      expect(sameAgent(agent, other)).toBe(false)
    }
    expect(sameAgent(undefined, agent)).toBe(false)
  })
  it('keeps an absent field apart from text that looks like a separator', () => {
    expect(agentKey({ name: 'a', cwd: 'b' })).not.toBe(agentKey({ name: 'a\u0000b' }))
    expect(agentKey({ name: 'x' })).toBe(agentKey({ name: 'x', pid: undefined }))
  })
})
