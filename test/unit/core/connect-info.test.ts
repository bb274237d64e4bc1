import { describe, expect, it } from 'vitest'
import { connectInfo } from '../../../core/connect-info'

describe('connectInfo', () => {
  const home = '/home/ann/.config/ask-user-companion'
  it("points a packaged app's agents at its launcher", () => {
    expect(
      connectInfo({
        platform: 'darwin',
        home,
        env: {},
        resourcesPath: '/Applications/Ask User Companion.app/Contents/Resources',
      }),
    ).toEqual({
      commandLine: { command: '/Applications/Ask User Companion.app/Contents/Resources/bin/ask-user', args: [] },
      env: { ASK_USER_HOME: home },
      platform: 'darwin',
    })
    expect(
      connectInfo({ platform: 'win32', home, env: {}, resourcesPath: '/c/App/resources' })?.commandLine.command,
    ).toMatch(/ask-user\.cmd$/)
  })
  it('starts an AppImage itself in command-line mode (its resources vanish when it exits)', () => {
    expect(
      connectInfo({
        platform: 'linux',
        home,
        env: { APPIMAGE: '/home/ann/Apps/Ask.AppImage' },
        resourcesPath: '/tmp/.mount_Ask/resources',
      }),
    ).toEqual({
      commandLine: { command: '/home/ann/Apps/Ask.AppImage', args: [] },
      env: { ASK_USER_HOME: home, ASK_USER_CLI: '1' },
      platform: 'linux',
    })
  })
  it("maps the packaged CLI bundle (run by Node) back to its app's launcher", () => {
    expect(
      connectInfo({ platform: 'linux', home, env: {}, script: '/opt/Ask/resources/cli/main/cli.js' })?.commandLine,
    ).toEqual({
      command: '/opt/Ask/resources/bin/ask-user',
      args: [],
    })
  })
  it('runs a checkout or global install by its script, through node on Windows', () => {
    expect(
      connectInfo({ platform: 'linux', home, env: {}, script: '/src/ask-user-companion/bin/ask-user.js' })?.commandLine,
    ).toEqual({
      command: '/src/ask-user-companion/bin/ask-user.js',
      args: [],
    })
    expect(
      connectInfo({ platform: 'win32', home, env: {}, script: 'C:\\src\\bin\\ask-user.js', node: 'C:\\node\\node.exe' })
        ?.commandLine,
    ).toEqual({
      command: 'C:\\node\\node.exe',
      args: ['C:\\src\\bin\\ask-user.js'],
    })
    expect(connectInfo({ platform: 'freebsd', home, env: {} })).toBeUndefined()
  })
})
