import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveHome } from '../../../core'

describe('resolveHome', () => {
  it('prefers ASK_USER_HOME', () => {
    expect(resolveHome({ ASK_USER_HOME: 'rel/dir', HOME: '/home/me' }, 'linux')).toBe(resolve('rel/dir'))
  })
  it('ignores a blank ASK_USER_HOME', () => {
    expect(resolveHome({ ASK_USER_HOME: ' ', HOME: '/home/me' }, 'linux')).toBe(
      join('/home/me', '.config', 'ask-user-companion'),
    )
  })
  it('uses the per-user app data folder of each OS', () => {
    expect(resolveHome({ HOME: '/home/me', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe(join('/xdg', 'ask-user-companion'))
    expect(resolveHome({ HOME: '/Users/me' }, 'darwin')).toBe(
      join('/Users/me', 'Library', 'Application Support', 'ask-user-companion'),
    )
    expect(resolveHome({ HOME: '/x', APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\me\\AppData\\Roaming\\ask-user-companion',
    )
  })
})
