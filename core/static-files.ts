import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { PAGE_FILES, pageCsp } from '../shared/csp'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

/** On every response: the browser build's CSP (with `frame-ancestors 'none'`), no referrer, no framing. */
const SECURITY_HEADERS = {
  'Content-Security-Policy': pageCsp('web', 'header'),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

/** Shown when the renderer has not been built: `ask-user serve` still starts and says what to do. */
export const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ask User Companion</title></head>
<body><h1>Ask User Companion</h1>
<p>The companion is running, but the question window has not been built yet.
Run <code>npm run build</code> in the project folder, then restart <code>ask-user serve</code>.</p>
</body></html>
`

/**
 * Serves the built renderer from `root` for GET/HEAD: `/` is the browser build's page (`web.html`,
 * whose CSP allows the loopback WebSocket; `index.html`, the Electron build's, when there is none),
 * other paths map to files under `root` (no traversal outside it, no directory listings). When `root`
 * has neither page, `/` serves {@link PLACEHOLDER_PAGE}. Everything else is 404; other methods 405.
 */
export async function serveStatic(
  root: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, req, 405, 'text/plain; charset=utf-8', 'method not allowed\n')
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return send(res, req, 400, 'text/plain; charset=utf-8', 'bad path\n')
  }
  const relative = decoded === '/' ? await pageFile(root) : decoded.replace(/^\/+/, '')
  const file = normalize(join(root, relative))
  if (decoded.includes('\0') || !file.startsWith(normalize(root + sep)))
    return send(res, req, 404, 'text/plain; charset=utf-8', 'not found\n')
  try {
    const info = await stat(file)
    if (!info.isFile()) throw new Error('not a file')
    const body = await readFile(file)
    return send(res, req, 200, TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', body)
  } catch {
    if (decoded === '/') return send(res, req, 200, TYPES['.html']!, PLACEHOLDER_PAGE)
    return send(res, req, 404, 'text/plain; charset=utf-8', 'not found\n')
  }
}

/** The page `/` serves: the browser build's when it was built, else the Electron build's. */
async function pageFile(root: string): Promise<string> {
  try {
    if ((await stat(join(root, PAGE_FILES.web))).isFile()) return PAGE_FILES.web
  } catch {
    // not built (an older build, or a test folder): fall back to index.html
  }
  return PAGE_FILES.electron
}

/** Writes a complete response with the security headers (no caching: the page is tiny and local). */
export function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  type: string,
  body: string | Buffer,
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}
