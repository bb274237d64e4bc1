// `ask-user relay serve-app DIR`: the built phone app copied into a web root the person serves over HTTPS
// from their own host, with sample Caddy and nginx configs. It opens no port: serving is the web server's job.
import { existsSync } from 'node:fs'
import { lstat, readFile, readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { ensureFolder, isErrnoCode, writeFileAtomic } from '../../core/private-files'
import { RelayCliError } from './errors'
import { webServerSamples } from './serve-app-samples'

/**
 * A web root is meant to be read by the web server's own user, so what this writes is world-readable:
 * files 0644, folders with the default permissions (0755 under the usual umask). Nothing in the built app
 * is a secret: the phone makes its keys itself.
 */
const WEB_FILE_MODE = 0o644

/** The sample config files written next to the app. */
export const SAMPLE_FILES = { caddy: 'ask-user-app.caddy', nginx: 'ask-user-app.nginx.conf' } as const

/**
 * The built phone app: `out/phone` next to the bundle (`out/main/cli.js` → `../phone`), else the
 * repository's `out/phone` when running from sources. The first that has an `index.html`, else undefined.
 */
export function builtAppDir(): string | undefined {
  const candidates = [join(__dirname, '..', 'phone'), join(__dirname, '..', '..', 'out', 'phone')]
  return candidates.find((dir) => existsSync(join(dir, 'index.html')))
}

/** The Content-Security-Policy the build put in index.html's meta tag. */
export function metaCsp(indexHtml: string): string {
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(indexHtml)
  if (match === null)
    throw new RelayCliError(
      'RELAY_SERVE_APP_NOT_BUILT',
      'The built phone app has no Content-Security-Policy in its index.html; rebuild it (npm run build).',
    )
  return match[1]!
}

/**
 * Copies every file of the built app (`from`, default {@link builtAppDir}) into `dir` and writes the two
 * samples; returns the paths written, relative to `dir`. Creates `dir` (0755 under the usual umask) when missing; never deletes
 * anything else in it. Refuses with `RELAY_SERVE_APP_LINK` when `dir` or anything it would write through
 * is a symbolic link (a link could send the files somewhere the person did not pick), and with
 * `RELAY_SERVE_APP_NOT_BUILT` when there is no built app.
 */
export async function serveApp(dir: string, from = builtAppDir()): Promise<string[]> {
  if (from === undefined)
    throw new RelayCliError(
      'RELAY_SERVE_APP_NOT_BUILT',
      'The phone app is not built next to this ask-user; build it (npm run build) or use the released app.',
    )
  const csp = metaCsp(await readFile(join(from, 'index.html'), 'utf8'))
  await makeWebDir(dir)
  const written: string[] = []
  for (const name of (await readdir(from, { recursive: true })).sort()) {
    const source = join(from, name)
    const stat = await lstat(source)
    if (stat.isDirectory()) await makeWebDir(join(dir, name))
    else if (stat.isFile()) {
      await writeWebFile(join(dir, name), await readFile(source))
      written.push(relative(dir, join(dir, name)))
    }
  }
  const samples = webServerSamples(csp + "; frame-ancestors 'none'")
  await writeWebFile(join(dir, SAMPLE_FILES.caddy), samples.caddy)
  await writeWebFile(join(dir, SAMPLE_FILES.nginx), samples.nginx)
  return [...written, SAMPLE_FILES.caddy, SAMPLE_FILES.nginx]
}

function linkRefusal(path: string): RelayCliError {
  return new RelayCliError(
    'RELAY_SERVE_APP_LINK',
    `${path} is a symbolic link; give the web root's real folder (nothing is written through a link).`,
  )
}

async function makeWebDir(path: string): Promise<void> {
  const stat = await lstatOrUndefined(path)
  if (stat?.isSymbolicLink() === true) throw linkRefusal(path)
  if (stat !== undefined && !stat.isDirectory())
    throw new RelayCliError('RELAY_SERVE_APP_LINK', `${path} is not a folder; move it away or pick another DIR.`)
  if (stat === undefined) await ensureFolder(path)
}

async function writeWebFile(path: string, data: string | Buffer): Promise<void> {
  // A link where a file goes is refused rather than replaced: the person may have put it there on purpose.
  if ((await lstatOrUndefined(path))?.isSymbolicLink() === true) throw linkRefusal(path)
  // Atomic (temp file then rename, never following a link): a web server reads the old file or the new one.
  await writeFileAtomic(path, data, { mode: WEB_FILE_MODE })
}

async function lstatOrUndefined(path: string): Promise<Awaited<ReturnType<typeof lstat>> | undefined> {
  try {
    return await lstat(path)
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined
    throw error
  }
}
