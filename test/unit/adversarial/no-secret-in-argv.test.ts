// Every local user can read every process's argv (/proc/*/cmdline, `ps`): `ask-user serve --open` must put
// neither the agent token nor the window credential there, nor in the opener's environment.
import { spawn, spawnSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EndpointFileSchema } from '../../../shared/wire'
import { WindowFileSchema } from '../../../shared/window-link'
import { BIN, ensureBuilt } from '../cli/built-cli'

/** Every readable /proc/<pid>/<file> (cmdline or environ), NUL-separated text. */
async function everyProcess(file: 'cmdline' | 'environ'): Promise<string[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name))
  const texts = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '')))
  return texts.filter((text) => text !== '')
}

describe.skipIf(process.platform !== 'linux')('no secret in argv or a child environment', () => {
  let dir: string
  beforeAll(async () => {
    await ensureBuilt()
    dir = await mkdtemp(join(tmpdir(), 'ask-user-argv-'))
  }, 120_000)
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('serve --open opens a one-time link; while the opener runs, no process shows the token or the credential', async () => {
    const home = join(dir, 'home')
    const bin = join(dir, 'bin')
    const opened = join(dir, 'opened.txt')
    await mkdir(bin, { recursive: true })
    // A stand-in for xdg-open that keeps running (as a browser would) once it noted its arguments.
    await writeFile(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s' "$1" > "${opened}.tmp" && mv "${opened}.tmp" "${opened}"\nsleep 30\n`,
    )
    await chmod(join(bin, 'xdg-open'), 0o755)
    const serve = spawn(process.execPath, [BIN, 'serve', '--open', '--port', '0'], {
      env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, ASK_USER_HOME: home, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      await expect.poll(() => readFile(opened, 'utf8').catch(() => ''), { timeout: 15_000 }).toMatch(/#code=/)
      const token = EndpointFileSchema.parse(JSON.parse(await readFile(join(home, 'endpoint.json'), 'utf8'))).token
      const credential = WindowFileSchema.parse(
        JSON.parse(await readFile(join(home, 'window.json'), 'utf8')),
      ).credential
      const link = await readFile(opened, 'utf8')
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{32}$/)
      const argvs = await everyProcess('cmdline')
      expect(argvs.some((argv) => argv.includes('#code='))).toBe(true)
      expect(argvs.filter((argv) => argv.includes(token) || argv.includes(credential))).toEqual([])
      const environs = await everyProcess('environ')
      expect(environs.filter((environ) => environ.includes(token) || environ.includes(credential))).toEqual([])
    } finally {
      serve.kill('SIGTERM')
      await new Promise((resolve) => serve.once('exit', resolve))
      spawnSync('pkill', ['-f', `${bin}/xdg-open`])
    }
  })
})
