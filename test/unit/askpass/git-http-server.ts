// A small HTTP server with Basic auth in front of git's own CGI, /usr/lib/git-core/git-http-backend.
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const GIT_HTTP_BACKEND = '/usr/lib/git-core/git-http-backend'

export interface GitServer {
  url: string
  close(): Promise<void>
}

/** Serves the bare repositories under `root` at `http://127.0.0.1:<port>/`, for `user`:`password` only. */
export async function startGitServer(root: string, user: string, password: string): Promise<GitServer> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' }).end('unauthorized\n')
      return
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const cgi = spawn(GIT_HTTP_BACKEND, [], {
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    })
    req.pipe(cgi.stdin)
    let head = Buffer.alloc(0)
    let headerDone = false
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headerDone) return void res.write(chunk)
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) return
      headerDone = true
      let status = 200
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const at = line.indexOf(':')
        const name = line.slice(0, at).trim()
        const value = line.slice(at + 1).trim()
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0])
        else res.setHeader(name, value)
      }
      res.writeHead(status)
      res.write(head.subarray(end + 4))
    })
    cgi.stdout.on('end', () => res.end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
