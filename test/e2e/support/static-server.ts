// A static file server on 127.0.0.1 (a secure context for the browser) for the built phone app: the
// folder's files as they are, with the app's CSP as a header too, and a log of every path asked for.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
}

export interface StaticServer {
  origin: string
  /** Every request line's target (path and query) the server received, in order. */
  requested: string[]
  close(): Promise<void>
}

/** Serves `folder` on a free 127.0.0.1 port; `/` is index.html. */
export async function serveStatic(folder: string): Promise<StaticServer> {
  const requested: string[] = []
  const server: Server = createServer((req, res) => {
    requested.push(req.url ?? '')
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const file = normalize(join(folder, path === '/' ? 'index.html' : path))
    if (!file.startsWith(folder)) return void res.writeHead(403).end()
    stat(file).then(
      (info) => {
        if (!info.isFile()) return void res.writeHead(404).end()
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        createReadStream(file).pipe(res)
      },
      () => void res.writeHead(404).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requested,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
