// `ask-user relay serve-app DIR`: writes the phone app and sample web-server configs into DIR (serve-app.ts).
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { EXIT, printError, type CliIo } from '../io'
import { allowedOriginsLine } from './app-urls'
import { SAMPLE_FILES, serveApp } from './serve-app'

/** Runs `relay serve-app DIR`: lists what it wrote on stderr and the next steps on stdout. Opens no port. */
export async function runServeApp(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} })
  if (positionals.length !== 1 || positionals[0] === '') {
    printError(io, 'relay serve-app needs exactly one DIR (the web root the phone app is copied into)')
    return EXIT.INVALID_INPUT
  }
  const dir = resolve(io.cwd, positionals[0]!)
  const written = await serveApp(dir)
  io.stderr.write(`Wrote ${written.length} files to ${dir} (folders 755, files 644: a web root is meant to be read).\n`)
  io.stdout.write(
    [
      'Next steps:',
      `1. Serve ${dir} over HTTPS from your host: adapt ${SAMPLE_FILES.caddy} or ${SAMPLE_FILES.nginx} there.`,
      '2. On the first desktop, point pairing at it: ask-user relay app-url https://app.example.org/',
      "3. Allow that origin on the relay's WebSocket listener, in nats-server.conf's websocket block:",
      allowedOriginsLine(['https://app.example.org']),
      '   then restart nats-server.',
      '',
    ].join('\n'),
  )
  return EXIT.OK
}
