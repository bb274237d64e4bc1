import { describe, expect, it } from 'vitest'
import { addItem, ConfigFileError, deleteAt, parseJsonc, removeItem, setAt } from '../../../cli/setup/json-edit'
import { readTomlKey, removeTomlKeys, setTomlKeys } from '../../../cli/setup/toml-edit'

describe('TOML table edits (Codex config)', () => {
  const codexWrote =
    '# mine\nmodel = "o3"\n\n[mcp_servers.ask-user]\ncommand = "/a"\nargs = ["mcp"]\n\n[mcp_servers.ask-user.env]\nASK_USER_HOME = "/h"\n'

  it('adds keys at the end of the table, before the next one, and replaces them in place later', () => {
    const once = setTomlKeys(codexWrote, 'mcp_servers.ask-user', { tool_timeout_sec: '86400' })
    expect(once).toBe(
      '# mine\nmodel = "o3"\n\n[mcp_servers.ask-user]\ncommand = "/a"\nargs = ["mcp"]\ntool_timeout_sec = 86400\n\n[mcp_servers.ask-user.env]\nASK_USER_HOME = "/h"\n',
    )
    expect(setTomlKeys(once, 'mcp_servers.ask-user', { tool_timeout_sec: '86400' })).toBe(once)
    expect(
      readTomlKey(
        setTomlKeys(once, 'mcp_servers.ask-user', { tool_timeout_sec: '60' }),
        'mcp_servers.ask-user',
        'tool_timeout_sec',
      ),
    ).toBe('60')
  })

  it('appends a missing table, and removing its keys removes it', () => {
    const added = setTomlKeys(codexWrote, 'mcp_servers.ask-user.tools.ask_user_question', {
      approval_mode: '"approve"',
    })
    expect(added).toBe(`${codexWrote}\n[mcp_servers.ask-user.tools.ask_user_question]\napproval_mode = "approve"\n`)
    expect(removeTomlKeys(added, 'mcp_servers.ask-user.tools.ask_user_question', ['approval_mode'])).toBe(codexWrote)
  })

  it('removing some keys keeps the table and its other keys', () => {
    const once = setTomlKeys(codexWrote, 'mcp_servers.ask-user', { tool_timeout_sec: '86400' })
    expect(removeTomlKeys(once, 'mcp_servers.ask-user', ['tool_timeout_sec'])).toBe(codexWrote)
    expect(removeTomlKeys(codexWrote, 'absent', ['x'])).toBe(codexWrote)
  })
})

describe('JSON(C) edits', () => {
  it('parses comments and trailing commas, but not comment markers inside strings', () => {
    expect(parseJsonc('{ "url": "http://x//y", /* c */ "a": [1,], }')).toEqual({
      value: { url: 'http://x//y', a: [1] },
      hadComments: true,
    })
    expect(parseJsonc('')).toEqual({ value: {}, hadComments: false })
    expect(() => parseJsonc('[1]')).toThrow(new ConfigFileError('the file is not a JSON object'))
  })

  it('sets, deletes (with emptied parents), adds and removes items; reports whether anything changed', () => {
    const root: Record<string, unknown> = { keep: 1 }
    expect(setAt(root, ['mcp', 'a'], { x: 1 })).toBe(true)
    expect(setAt(root, ['mcp', 'a'], { x: 1 })).toBe(false)
    expect(addItem(root, ['permissions', 'allow'], 'p')).toBe(true)
    expect(addItem(root, ['permissions', 'allow'], 'p')).toBe(false)
    expect(root).toEqual({ keep: 1, mcp: { a: { x: 1 } }, permissions: { allow: ['p'] } })
    expect(removeItem(root, ['permissions', 'allow'], 'p')).toBe(true)
    expect(deleteAt(root, ['mcp', 'a'])).toBe(true)
    expect(deleteAt(root, ['mcp', 'a'])).toBe(false)
    expect(root).toEqual({ keep: 1, permissions: { allow: [] } })
    expect(() => setAt({ mcp: 'x' }, ['mcp', 'a'], 1)).toThrow('"mcp.a" cannot be set: "mcp" is not an object')
  })
})
