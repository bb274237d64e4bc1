// "Install Command Line Tool…": the packaged app's ask-user goes on the PATH, on real folders.
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { installCommandLine } from '../../../electron/main/command-line-install'

let root: string
let resources: string
let home: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ask-user-cli-install-'))
  resources = join(root, 'App', 'resources')
  home = join(root, 'home')
  mkdirSync(join(resources, 'bin'), { recursive: true })
  cpSync(join(__dirname, '../../../build/bin/ask-user'), join(resources, 'bin', 'ask-user'))
  chmodSync(join(resources, 'bin', 'ask-user'), 0o755)
  writeFileSync(join(resources, 'bin', 'ask-user.cmd'), '@echo off\r\n')
  mkdirSync(home)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe.skipIf(process.platform === 'win32')('installCommandLine on macOS and Linux', () => {
  it('links ~/.local/bin/ask-user to the launcher, says when that folder is not on PATH, and is idempotent', async () => {
    const first = await installCommandLine({
      platform: 'linux',
      env: { PATH: '/usr/bin' },
      resourcesPath: resources,
      userHome: home,
    })
    const target = join(home, '.local', 'bin', 'ask-user')
    expect(first).toEqual({
      ok: true,
      path: target,
      onPath: false,
      message: `Installed ${target}: run \`ask-user\` in a new terminal. ${join(home, '.local', 'bin')} is not on your PATH yet: add it in your shell profile, e.g. export PATH="${join(home, '.local', 'bin')}:$PATH".`,
    })
    expect(readlinkSync(target)).toBe(join(resources, 'bin', 'ask-user'))
    const again = await installCommandLine({
      platform: 'linux',
      env: { PATH: `/usr/bin:${join(home, '.local', 'bin')}` },
      resourcesPath: resources,
      userHome: home,
    })
    expect(again).toMatchObject({
      ok: true,
      onPath: true,
      message: `Installed ${target}: run \`ask-user\` in a new terminal.`,
    })
  })

  it('uses /usr/local/bin on macOS when it is writable, else ~/.local/bin', async () => {
    const system = join(root, 'usr-local-bin')
    mkdirSync(system)
    expect(
      await installCommandLine({
        platform: 'darwin',
        env: {},
        resourcesPath: resources,
        userHome: home,
        systemBinDir: system,
      }),
    ).toMatchObject({
      ok: true,
      path: join(system, 'ask-user'),
    })
    expect(
      await installCommandLine({
        platform: 'darwin',
        env: {},
        resourcesPath: resources,
        userHome: home,
        systemBinDir: join(root, 'missing'),
      }),
    ).toMatchObject({
      ok: true,
      path: join(home, '.local', 'bin', 'ask-user'),
    })
  })

  it('writes a script that starts the AppImage (its resources exist only while it runs)', async () => {
    const result = await installCommandLine({
      platform: 'linux',
      env: { APPIMAGE: "/opt/apps/Ask User's Companion.AppImage" },
      resourcesPath: resources,
      userHome: home,
    })
    expect(result.ok).toBe(true)
    const script = readFileSync(join(home, '.local', 'bin', 'ask-user'), 'utf8')
    expect(script).toContain(`ASK_USER_CLI=1 exec '/opt/apps/Ask User'\\''s Companion.AppImage' "$@"`)
    expect(spawnSync('sh', ['-n', join(home, '.local', 'bin', 'ask-user')]).status).toBe(0) // valid shell
    // A later install over our own script is fine.
    expect(
      (await installCommandLine({ platform: 'linux', env: {}, resourcesPath: resources, userHome: home })).ok,
    ).toBe(true)
  })

  it('refuses to replace an ask-user that is not ours', async () => {
    mkdirSync(join(home, '.local', 'bin'), { recursive: true })
    writeFileSync(join(home, '.local', 'bin', 'ask-user'), '#!/bin/sh\necho someone else\n')
    const result = await installCommandLine({ platform: 'linux', env: {}, resourcesPath: resources, userHome: home })
    expect(result).toEqual({
      ok: false,
      message: `${join(home, '.local', 'bin', 'ask-user')} already exists and is not Ask User Companion's. Remove it, then try again.`,
    })
    expect(readFileSync(join(home, '.local', 'bin', 'ask-user'), 'utf8')).toContain('someone else')
  })

  it('says why when the app has no launcher', async () => {
    rmSync(join(resources, 'bin', 'ask-user'))
    const result = await installCommandLine({ platform: 'linux', env: {}, resourcesPath: resources, userHome: home })
    expect(result.ok).toBe(false)
    expect(result.message).toMatch(/^The command line tool could not be installed: ENOENT/)
  })
})

describe('installCommandLine on Windows', () => {
  it("adds resources\\bin to the user's Path through PowerShell, once", async () => {
    const runs: Array<{ file: string; args: string[] }> = []
    const result = await installCommandLine({
      platform: 'win32',
      env: {},
      resourcesPath: resources,
      userHome: home,
      run: async (file, args) => void runs.push({ file, args }),
    })
    expect(result).toEqual({
      ok: true,
      path: join(resources, 'bin', 'ask-user.cmd'),
      onPath: true,
      message: `Added ${join(resources, 'bin')} to your Path: run \`ask-user\` in a new terminal.`,
    })
    expect(runs).toHaveLength(1)
    expect(runs[0]!.file).toBe('powershell.exe')
    expect(runs[0]!.args.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-Command'])
    expect(runs[0]!.args[3]).toContain(`if ($parts -notcontains '${join(resources, 'bin')}')`)
    expect(runs[0]!.args[3]).toContain("SetEnvironmentVariable('Path'")
  })

  it('reports a PowerShell failure in words', async () => {
    const result = await installCommandLine({
      platform: 'win32',
      env: {},
      resourcesPath: resources,
      userHome: home,
      run: async () => {
        throw new Error('Access is denied.')
      },
    })
    expect(result).toEqual({ ok: false, message: 'The command line tool could not be installed: Access is denied.' })
  })
})
