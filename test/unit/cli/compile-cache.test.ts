// bin/compile-cache.js: the built CLI keeps V8's compiled code of its bundles in a private folder of the
// user's cache, reads it back on the next run, survives a corrupt cache and refuses a folder others may write.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { execFileSync } from 'node:child_process'
import Module from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { version } from '../../../package.json'
import { ensureBuilt, runCli } from './built-cli'

let home: string
const cacheDir = (): string => join(home, 'cache', 'ask-user-companion', `v8-${process.version}-${process.arch}`)
const env = (): Record<string, string> => ({ HOME: home, XDG_CACHE_HOME: join(home, 'cache') })
const versionRun = async (extra: Record<string, string> = {}): Promise<void> => {
  expect(await runCli(['--version'], { ...env(), ...extra }).done).toMatchObject({
    code: 0,
    stdout: `${version}\n`,
    stderr: '',
  })
}
const snapshot = async (): Promise<Record<string, string>> => {
  const names = await readdir(cacheDir())
  return Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [name, (await readFile(join(cacheDir(), name))).toString('base64')] as const),
    ),
  )
}
/** Node 22.1+ uses its own module.enableCompileCache with the same folder; the file format is then Node's. */
const handKept = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache !== 'function'

beforeAll(() => ensureBuilt(), 120_000)
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ask-user-compile-cache-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

describe.runIf(handKept)('the hand-kept compile cache (Node < 22.1)', () => {
  it('writes one private file per bundle loaded, and the next run reads them back unchanged', async () => {
    await versionRun()
    expect((await stat(cacheDir())).mode & 0o777).toBe(0o700)
    const first = await snapshot()
    expect(Object.keys(first).some((name) => /^cli-[0-9a-f]+\.v8$/.test(name))).toBe(true)
    for (const name of Object.keys(first)) expect((await stat(join(cacheDir(), name))).mode & 0o777).toBe(0o600)
    await versionRun()
    // V8 accepted every file: none was written again.
    expect(await snapshot()).toEqual(first)
  })

  it('a corrupt cache file is rejected by V8, the run is unharmed, and the file is written anew', async () => {
    await versionRun()
    const names = Object.keys(await snapshot())
    for (const name of names) await writeFile(join(cacheDir(), name), 'not V8 code')
    await versionRun()
    const after = await snapshot()
    for (const name of names) expect(Buffer.from(after[name]!, 'base64').toString()).not.toBe('not V8 code')
  })
})

describe.runIf(handKept)('a bundle compiled through the hand-kept cache', () => {
  it('is left to Node when it may import() dynamically (vm.Script cannot), and it works on every run', async () => {
    const bundles = join(home, 'bundles')
    await mkdir(bundles)
    await writeFile(join(bundles, 'lazy.js'), "module.exports = import('node:path').then((m) => typeof m.join)\n")
    const script = [
      `require(${JSON.stringify(join(process.cwd(), 'bin', 'compile-cache.js'))}).enableCompileCache(${JSON.stringify(bundles)})`,
      `require(${JSON.stringify(join(bundles, 'lazy.js'))}).then((t) => process.stdout.write(t), (e) => { process.stdout.write(String(e)); process.exitCode = 1 })`,
    ].join(';')
    const run = (): string =>
      execFileSync(process.execPath, ['-e', script], { env: { ...process.env, ...env() }, encoding: 'utf8' })
    expect(run()).toBe('function')
    expect(run()).toBe('function')
    expect((await readdir(cacheDir())).some((name) => name.startsWith('lazy-'))).toBe(false)
  })
})

describe('the compile cache folder', () => {
  it('is not used when others may write it', async () => {
    await mkdir(cacheDir(), { recursive: true })
    await chmod(cacheDir(), 0o777)
    await versionRun()
    expect(await readdir(cacheDir())).toEqual([])
  })

  it('is not used when others may write the ask-user-companion folder around it', async () => {
    await mkdir(cacheDir(), { recursive: true, mode: 0o700 })
    await chmod(join(cacheDir(), '..'), 0o777)
    await versionRun()
    expect(await readdir(cacheDir())).toEqual([])
  })

  it('is not made with ASK_USER_COMPILE_CACHE=0', async () => {
    await versionRun({ ASK_USER_COMPILE_CACHE: '0' })
    await expect(stat(join(home, 'cache'))).rejects.toThrow(/ENOENT/)
  })
})
