// `ask-user relay init|add-agent`: set up a self-hosted relay and give agents their relay file.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { resolveHome } from '../../core/home'
import { EXIT, printError, type CliIo, type Command } from '../io'
import { addAgent } from '../relay/add-agent'
import { describeRelayError } from '../relay/errors'
import { initRelay } from '../relay/init'

const HELP = `Usage:
  ask-user relay init --self-hosted DIR --origin https://PWA [--url URL] [--host H] [--client-port N]
                      [--ws-port N] (--tls-cert FILE --tls-key FILE | --loopback)
  ask-user relay add-agent NAME --out FILE [--ttl 12h] [--url URL]

init writes the relay server's folder DIR (mode 700: nats-server.conf, RUN.txt), keeps the companion's
signing keys, the root key, this desktop's keys and the signed roster in the companion's home (mode 600),
and prints the recovery sheet and root recovery code ONCE: keep them offline. --loopback makes a
relay on 127.0.0.1 without TLS, for trying it on this machine only.

add-agent writes ONE new file FILE (mode 600; an existing file or a link is refused) with the relay URL,
the agent's credential (valid for --ttl, at most 30d) and keys, and the pinned root key; the agent is
added to the roster. Give that file to the agent only.
`

/** Dispatches `relay init` and `relay add-agent`; errors print `Error: CODE: message` on stderr. */
export const run: Command = async (args, io) => {
  const [sub, ...rest] = args
  if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(HELP)
    return sub === undefined ? EXIT.INVALID_INPUT : EXIT.OK
  }
  try {
    if (sub === 'init') return await runInit(rest, io)
    if (sub === 'add-agent') return await runAddAgent(rest, io)
  } catch (error) {
    printError(io, describeRelayError(error))
    return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS') ? EXIT.INVALID_INPUT : 1
  }
  printError(io, `unknown relay command "${sub}"; run \`ask-user relay --help\``)
  return EXIT.INVALID_INPUT
}

async function runInit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      'self-hosted': { type: 'string' },
      origin: { type: 'string', multiple: true },
      url: { type: 'string' },
      host: { type: 'string' },
      'client-port': { type: 'string' },
      'ws-port': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      loopback: { type: 'boolean' },
    },
  })
  if (positionals.length > 0 || values['self-hosted'] === undefined || values['self-hosted'] === '') {
    printError(io, 'relay init needs --self-hosted DIR (the folder for the relay server; other modes are not offered yet)')
    return EXIT.INVALID_INPUT
  }
  const tls = values['tls-cert'] !== undefined || values['tls-key'] !== undefined ? { certFile: values['tls-cert'] ?? '', keyFile: values['tls-key'] ?? '' } : undefined
  const text = await initRelay({
    home: resolveHome(io.env),
    dir: resolve(io.cwd, values['self-hosted']),
    url: values.url,
    server: {
      allowedOrigins: values.origin ?? [],
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values['client-port'] === undefined ? {} : { clientPort: Number(values['client-port']) }),
      ...(values['ws-port'] === undefined ? {} : { websocketPort: Number(values['ws-port']) }),
      ...(tls === undefined ? {} : { tls: { certFile: resolve(io.cwd, tls.certFile), keyFile: resolve(io.cwd, tls.keyFile) } }),
      loopbackTest: values.loopback === true,
    },
  })
  io.stdout.write(text)
  return EXIT.OK
}

async function runAddAgent(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { out: { type: 'string' }, ttl: { type: 'string' }, url: { type: 'string' } },
  })
  if (positionals.length !== 1 || values.out === undefined || values.out === '') {
    printError(io, 'relay add-agent needs NAME and --out FILE (a new file; the credential never goes to stdout)')
    return EXIT.INVALID_INPUT
  }
  const out = resolve(io.cwd, values.out)
  const added = await addAgent({ home: resolveHome(io.env), name: positionals[0]!, out, ttl: values.ttl, url: values.url })
  const expires = new Date(added.credsExpiresAt * 1000).toISOString()
  io.stderr.write(`Wrote the relay file of agent "${positionals[0]}" to ${out} (mode 600; credential valid until ${expires}). Roster version ${added.rosterVersion}.\n`)
  return EXIT.OK
}
