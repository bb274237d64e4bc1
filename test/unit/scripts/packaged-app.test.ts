// `npm run dist` packs the app with the Electron that `npm start` installs (here a stand-in from a local
// mirror), and the packaged app carries its `ask-user` command: resources/bin/ask-user runs the CLI bundle
// with Node.js, else the app's executable in command-line mode, also through a symlink elsewhere.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { listPackage } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  RELEASE_FILE,
  ROOT,
  removeScratchDirs,
  scratchDir,
  scratchProject,
  shasums,
  standInLaunches,
  standInRelease,
  startMirror,
} from '../../helpers/electron-stand-in'
import type { ScratchProject } from '../../helpers/electron-stand-in'
import { runProcess } from '../../helpers/run-process'
import type { ProcessResult } from '../../helpers/run-process'
import { ensureBuilt } from '../cli/built-cli'

const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version

describe.runIf(process.platform === 'linux')('the packaged app (electron-builder --dir, stand-in Electron)', () => {
  let project: ScratchProject
  let home: string
  let unpacked: string
  let dist: ProcessResult

  beforeAll(async () => {
    await ensureBuilt() // the scratch project copies out/
    project = scratchProject()
    home = scratchDir('dist-home')
    const release = standInRelease()
    const mirror = await startMirror({
      files: { [RELEASE_FILE]: release, 'SHASUMS256.txt': Buffer.from(shasums({ [RELEASE_FILE]: release })) },
    })
    try {
      dist = await runProcess(
        process.execPath,
        [join(project.root, 'scripts', 'dist.mjs'), '--linux', 'dir'],
        project.root,
        {
          HOME: home,
          electron_config_cache: home,
          ELECTRON_MIRROR: mirror.url,
          electron_use_remote_checksums: '1',
        },
      )
    } finally {
      await mirror.close()
    }
    unpacked = join(project.root, 'release', 'linux-unpacked')
  }, 120_000)

  afterAll(() => {
    project?.remove()
    removeScratchDirs() // the home folder and the folders the tests made
  })

  it('installs Electron through the same path as npm start, then packs it without downloading it again', () => {
    expect(dist.stderr + dist.stdout).toContain('Electron 45.5.0 installed.')
    expect(dist.stdout).toContain('using custom unpacked Electron distribution')
    expect(dist.code).toBe(0)
  })

  it('has the app in app.asar, the bundled CLI and its page in resources/cli, the launcher in resources/bin', () => {
    const asar = listPackage(join(unpacked, 'resources', 'app.asar'), { isPack: false })
    expect(asar).toEqual(
      expect.arrayContaining([
        '/package.json',
        '/out/main/index.js',
        '/out/main/cli.js',
        '/out/preload/index.js',
        '/out/renderer/index.html',
      ]),
    )
    expect(asar.filter((path) => path.startsWith('/node_modules'))).toEqual([]) // every dependency is bundled
    expect(existsSync(join(unpacked, 'resources', 'cli', 'main', 'cli.js'))).toBe(true)
    expect(existsSync(join(unpacked, 'resources', 'cli', 'main', 'index.js'))).toBe(false)
    expect(existsSync(join(unpacked, 'resources', 'cli', 'renderer', 'index.html'))).toBe(true) // for `ask-user serve`
    // the npm install's entry, which picks each command's bundle and keeps the compile cache
    expect(readFileSync(join(unpacked, 'resources', 'cli', 'bin', 'ask-user.js'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'bin', 'ask-user.js'), 'utf8'),
    )
    expect(existsSync(join(unpacked, 'resources', 'cli', 'bin', 'compile-cache.js'))).toBe(true)
    expect(statSync(join(unpacked, 'resources', 'bin', 'ask-user')).mode & 0o111).toBe(0o111)
    expect(existsSync(join(unpacked, 'ask-user-companion'))).toBe(true)
  })

  it('keeps the RunAsNode fuse off (so the launcher cannot rely on it)', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'ask-user-companion'))
    expect(String.fromCharCode(wire[FuseV1Options.RunAsNode] as number)).toBe('0')
    expect(String.fromCharCode(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation] as number)).toBe('1')
    expect(String.fromCharCode(wire[FuseV1Options.OnlyLoadAppFromAsar] as number)).toBe('1')
  })

  it('runs `ask-user` with the Node.js on PATH, from any folder and through a symlink', async () => {
    const elsewhere = scratchDir('cli-elsewhere')
    mkdirSync(join(elsewhere, 'bin'))
    symlinkSync(join(unpacked, 'resources', 'bin', 'ask-user'), join(elsewhere, 'bin', 'ask-user'))
    const direct = await runProcess(join(unpacked, 'resources', 'bin', 'ask-user'), ['--version'], elsewhere, {
      HOME: home,
    })
    expect(direct).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
    const linked = await runProcess(join(elsewhere, 'bin', 'ask-user'), ['schema'], elsewhere, { HOME: home })
    expect(linked.code).toBe(0)
    expect(JSON.parse(linked.stdout).name).toBe('ask_user_question')
  })

  it('starts `ask-user mcp` from its own bundle with the compile cache, loading no other command', async () => {
    const cache = scratchDir('cli-cache')
    const result = await runProcess(join(unpacked, 'resources', 'bin', 'ask-user'), ['mcp'], home, {
      HOME: home,
      XDG_CACHE_HOME: cache,
    })
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' }) // stdin closed: the server ends at once
    const [folder] = readdirSync(join(cache, 'ask-user-companion'))
    const cached = readdirSync(join(cache, 'ask-user-companion', folder ?? ''))
    expect(cached.filter((name) => /^mcp-[0-9a-f]+\.v8$/.test(name))).toHaveLength(1)
    expect(cached.filter((name) => /^cli-/.test(name))).toEqual([])
  })

  it('takes a Node.js older than 20 for none and runs the app in command-line mode', async () => {
    const log = join(home, 'launches-old-node.log')
    const oldNode = join(home, 'old-node')
    // What `node --version` of Node 18 prints; anything else it is asked to run would be a failure.
    writeFileSync(
      oldNode,
      '#!/bin/sh\n[ "$1" = --version ] && { echo v18.20.4; exit 0; }\necho "old node must not run $*" >&2\nexit 9\n',
    )
    chmodSync(oldNode, 0o755)
    const result = await runProcess(join(unpacked, 'resources', 'bin', 'ask-user'), ['--version'], home, {
      HOME: home,
      ASK_USER_NODE: oldNode,
      ELECTRON_STAND_IN_LOG: log,
    })
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(standInLaunches(log)).toEqual([{ cwd: home, args: ['--version'], cliMode: '1' }])
  })

  it('falls back to the app executable in command-line mode where there is no Node.js', async () => {
    const log = join(home, 'launches.log')
    const result = await runProcess(
      join(unpacked, 'resources', 'bin', 'ask-user'),
      ['ask', '--question', 'Ship it?'],
      home,
      {
        HOME: home,
        ASK_USER_NODE: join(home, 'no-node-here'),
        ELECTRON_STAND_IN_LOG: log,
      },
    )
    expect(result.code).toBe(0)
    expect(standInLaunches(log)).toEqual([{ cwd: home, args: ['ask', '--question', 'Ship it?'], cliMode: '1' }])
  })
})
