// `ask-user relay serve-app DIR` on the built phone app (run `npx vite build -c vite.phone.config.mts` first):
// the files land in DIR readable by a web server, nothing is written through a link, nothing else in DIR
// is removed, the samples carry the CSP as a header, and no port is opened.
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { builtAppDir } from '../../../cli/relay/serve-app'
import { memoryIo } from './memory-io'

const mode = async (path: string): Promise<number> => (await lstat(path)).mode & 0o777

/** The inodes of this process's listening TCP sockets (from /proc: its socket fds that /proc/net/tcp* lists as LISTEN). */
async function ownListeningSockets(): Promise<string[]> {
  const inodes = new Set<string>()
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(join('/proc/self/fd', fd)).catch(() => '')
    const match = /^socket:\[(\d+)\]$/.exec(target)
    if (match) inodes.add(match[1]!)
  }
  const listening: string[] = []
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/)
      if (cols[3] === '0A' && inodes.has(cols[9]!)) listening.push(cols[9]!)
    }
  }
  return listening.sort()
}

describe('relay serve-app DIR', () => {
  let root: string
  let app: string

  beforeAll(() => {
    const dir = builtAppDir()
    if (dir === undefined) throw new Error('build the phone app first: npx vite build -c vite.phone.config.mts')
    app = dir
  })
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-serve-app-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })
  const serve = async (dir: string) => {
    const io = memoryIo({ ASK_USER_HOME: join(root, 'home') })
    return { code: await main(['relay', 'serve-app', dir], io), io }
  }

  it('copies every built file (0644) into a new DIR (0755), keeps what else is there, and opens no port', async () => {
    const dir = join(root, 'www', 'app')
    const before = await ownListeningSockets()
    const { code, io } = await serve(dir)
    expect(io.err()).toMatch(/^Wrote \d+ files to /)
    expect(code).toBe(0)
    expect(await ownListeningSockets()).toEqual(before)

    expect(await mode(dir)).toBe(0o755)
    const built = (await readdir(app, { recursive: true })).sort()
    expect(built).toEqual(expect.arrayContaining(['index.html', 'sw.js', 'assets']))
    for (const name of built) {
      const source = join(app, name)
      if ((await lstat(source)).isDirectory()) continue
      expect(await readFile(join(dir, name))).toEqual(await readFile(source))
      expect(await mode(join(dir, name))).toBe(0o644)
    }
    expect(await mode(join(dir, 'assets'))).toBe(0o755)
    expect(io.out()).toContain('ask-user relay app-url https://')
    expect(io.out()).toContain('allowed_origins: [')

    // A second run over an existing web root leaves the person's other files alone.
    await writeFile(join(dir, 'robots.txt'), 'User-agent: *\n')
    expect((await serve(dir)).code).toBe(0)
    expect(await readFile(join(dir, 'robots.txt'), 'utf8')).toBe('User-agent: *\n')
  })

  it('writes Caddy and nginx samples with the CSP as a header (plus frame-ancestors) and the cache rules', async () => {
    const dir = join(root, 'app')
    expect((await serve(dir)).code).toBe(0)
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(
      await readFile(join(app, 'index.html'), 'utf8'),
    )![1]!
    expect(meta).toContain("default-src 'self'")
    const header = `${meta}; frame-ancestors 'none'`
    for (const name of ['ask-user-app.caddy', 'ask-user-app.nginx.conf']) {
      const sample = await readFile(join(dir, name), 'utf8')
      expect(await mode(join(dir, name))).toBe(0o644)
      expect(sample).toContain(`Content-Security-Policy "${header}"`)
      expect(sample).toContain('X-Content-Type-Options "nosniff"')
      expect(sample).toContain('Referrer-Policy "no-referrer"')
      expect(sample).toMatch(/Cache-Control "no-cache"/)
      expect(sample).toMatch(/sw\\?\.js/)
      expect(sample).toContain('max-age=31536000, immutable')
    }
    const nginx = await readFile(join(dir, 'ask-user-app.nginx.conf'), 'utf8')
    expect(nginx).toContain('listen 443 ssl;')
    expect(nginx).toContain('return 301 https://$host$request_uri;')
    expect(nginx).not.toMatch(/listen 80;[^}]*root /)
  })

  it('refuses a DIR that is a symbolic link, and a link where a file goes, writing nothing through either', async () => {
    const elsewhere = join(root, 'elsewhere')
    await mkdir(elsewhere)
    await symlink(elsewhere, join(root, 'linked'))
    const linked = await serve(join(root, 'linked'))
    expect(linked.code).toBe(1)
    expect(linked.io.err()).toMatch(/^Error: RELAY_SERVE_APP_LINK: .*linked is a symbolic link/)
    expect(await readdir(elsewhere)).toEqual([])

    const dir = join(root, 'app')
    await mkdir(dir)
    await symlink(join(elsewhere, 'victim'), join(dir, 'index.html'))
    const planted = await serve(dir)
    expect(planted.code).toBe(1)
    expect(planted.io.err()).toMatch(/^Error: RELAY_SERVE_APP_LINK: .*index\.html is a symbolic link/)
    expect(existsSync(join(elsewhere, 'victim'))).toBe(false)
    expect((await lstat(join(dir, 'index.html'))).isSymbolicLink()).toBe(true)
  })

  it('needs exactly one DIR', async () => {
    const io = memoryIo({ ASK_USER_HOME: join(root, 'home') })
    expect(await main(['relay', 'serve-app'], io)).toBe(2)
    expect(io.err()).toMatch(/serve-app needs exactly one DIR/)
  })
})
