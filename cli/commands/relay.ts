// `ask-user relay init|add-agent|pair|join|connect|devices|remove|renew|passwords|mirror|app-url|serve-app`: set up a self-hosted
// relay, give agents their relay file, pair more devices, manage the roster, renew it, allow remote
// passwords and mirror local asks.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { resolveHome } from '../../core/home'
import { EXIT, printError, type CliIo, type Command } from '../io'
import { hostname } from 'node:os'
import { addAgent } from '../relay/add-agent'
import { describeRelayError } from '../relay/errors'
import { initRelay } from '../relay/init'
import { joinRelay } from '../relay/join'
import { connectDesktop } from '../relay/connect'
import { runAppUrl } from '../relay/app-url-command'
import { runMirror } from '../relay/mirror-command'
import { runServeApp } from '../relay/serve-app-command'
import { pairDevice } from '../../relay/home/pair-device'
import { renderUnicodeCompact } from 'uqr'
import { runPasswords } from '../relay/passwords'
import { renewRelay } from '../relay/renew'
import { removeMember } from '../../relay/home/remove-member'
import { listRoster } from '../relay/roster-commands'
import { lineReader } from '../relay/stdin-lines'
import { RelayCliError } from '../relay/errors'

const HELP = `Usage:
  ask-user relay init --self-hosted DIR [--app-url URL] [--origin https://ORIGIN] [--url URL] [--host H]
                      [--client-port N] [--ws-port N] (--tls-cert FILE --tls-key FILE | --loopback)
  ask-user relay app-url [URL] [--websocket-url URL]   (on the first desktop)
  ask-user relay serve-app DIR        (writes the phone app and sample web-server configs into DIR)
  ask-user relay add-agent NAME --out FILE [--ttl 12h] [--url URL]
  ask-user relay pair [--phone]       (on the first desktop; --phone: a link and QR code for the phone app)
  ask-user relay join [--name NAME]   (on the new device; reads the pairing line from stdin)
  ask-user relay connect [URL] [--name NAME]
                                      (on another desktop; reads the pairing line, then the root recovery code, from stdin)
  ask-user relay devices
  ask-user relay remove NAME
  ask-user relay renew                (what the companion does at every start)
  ask-user relay passwords allow NAME | deny NAME [--on DEVICE | --phones] | list
  ask-user relay mirror on|off|status (on the first desktop)

init writes the relay server's folder DIR (mode 700: nats-server.conf, RUN.txt), keeps the companion's
signing keys, the root key, this desktop's keys and the signed roster in the companion's home (mode 600),
and prints the recovery sheet and root recovery code ONCE: keep them offline. --loopback makes a
relay on 127.0.0.1 without TLS, for trying it on this machine only. --app-url is where the phone app is
served (default: the project's Pages site); its origin, and each --origin, is allowed on the relay's
WebSocket listener.

app-url prints where the phone app and the relay's WebSocket are; with URL (or --websocket-url URL) it
sets them and prints the allowed_origins line for nats-server.conf (restart the server after).

serve-app copies the built phone app into DIR (created 755 if missing; nothing else there is removed;
a link is refused) with sample Caddy and nginx configs for your own HTTPS host. It opens no port.

add-agent writes ONE new file FILE (mode 600; an existing file or a link is refused) with the relay URL,
the agent's credential (valid for --ttl, at most 30d) and keys, and the pinned root key; the agent is
added to the roster. Give that file to the agent only.

pair prints a one-time line (valid 5 minutes). Give it to \`ask-user relay join\` on the new device through
its stdin (paste it; never as an argument). Both terminals then show the same 6-digit code: type yes on
the first desktop only if they match. The device is added to the roster and gets its own credential.

connect joins this machine as another DESKTOP of an existing relay, from a fresh companion home: paste
the line from \`relay pair\` (on a desktop of the relay), then type the root recovery code \`relay init\`
printed. The code is checked against the line's root key before anything is sent, and never leaves this
machine. Confirm on the other desktop as for a device; this desktop then gets the relay's signing keys
and can pair, remove and renew too. URL is optional and only checked: it must equal the relay URL in the
line (the line already says where the relay is).

devices lists the roster after checking its signature; remove NAME takes a member out of the roster
(re-signed and published): from then on nothing it answers is accepted.

renew, on the first desktop, re-signs the roster for 60 more days, publishes it and renews every paired
device's 7-day credential that is due; on a paired device it picks up a newer roster and its renewed
credential. The companion does the same at every start.

passwords allow NAME lets this desk answer the remote agent NAME's password (secret) questions; the
answer is sealed to a one-time key of that ask and kept on the relay 10 minutes at most. deny NAME
takes it back; list shows the agents allowed here. Other desks decide for themselves. With --on DEVICE
(a paired phone, by its name in \`relay devices\`) or --phones (every paired device), allow also lets
that phone answer them, and deny stops only that phone: the first desktop seals the list to each phone
on the relay and rewrites it at once (the relay must be reachable).

mirror on makes the first desktop's companion write each new question of its local agents (never a
secret one, never an approval) to the relay, so the other desks can answer it: the first answer, here
or there, settles it. Off by default; status prints the setting.
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
    if (sub === 'pair') return await runPair(rest, io)
    if (sub === 'join') return await runJoin(rest, io)
    if (sub === 'connect') return await runConnect(rest, io)
    if (sub === 'devices') return await runDevices(rest, io)
    if (sub === 'remove') return await runRemove(rest, io)
    if (sub === 'renew') return await runRenew(rest, io)
    if (sub === 'passwords') return await runPasswords(rest, io)
    if (sub === 'mirror') return await runMirror(rest, io)
    if (sub === 'app-url') return await runAppUrl(rest, io)
    if (sub === 'serve-app') return await runServeApp(rest, io)
  } catch (error) {
    printError(io, describeRelayError(error))
    return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')
      ? EXIT.INVALID_INPUT
      : 1
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
      'app-url': { type: 'string' },
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
    printError(
      io,
      'relay init needs --self-hosted DIR (the folder for the relay server; other modes are not offered yet)',
    )
    return EXIT.INVALID_INPUT
  }
  const tls =
    values['tls-cert'] !== undefined || values['tls-key'] !== undefined
      ? { certFile: values['tls-cert'] ?? '', keyFile: values['tls-key'] ?? '' }
      : undefined
  const text = await initRelay({
    home: resolveHome(io.env),
    dir: resolve(io.cwd, values['self-hosted']),
    url: values.url,
    ...(values['app-url'] === undefined ? {} : { appUrl: values['app-url'] }),
    server: {
      allowedOrigins: values.origin ?? [],
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values['client-port'] === undefined ? {} : { clientPort: Number(values['client-port']) }),
      ...(values['ws-port'] === undefined ? {} : { websocketPort: Number(values['ws-port']) }),
      ...(tls === undefined
        ? {}
        : { tls: { certFile: resolve(io.cwd, tls.certFile), keyFile: resolve(io.cwd, tls.keyFile) } }),
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
  const added = await addAgent({
    home: resolveHome(io.env),
    name: positionals[0]!,
    out,
    ttl: values.ttl,
    url: values.url,
  })
  const expires = new Date(added.credsExpiresAt * 1000).toISOString()
  io.stderr.write(
    `Wrote the relay file of agent "${positionals[0]}" to ${out} (mode 600; credential valid until ${expires}). Roster version ${added.rosterVersion}.\n`,
  )
  return EXIT.OK
}

async function runPair(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: { phone: { type: 'boolean', default: false } },
  })
  const input = lineReader(io.stdin)
  try {
    const paired = await pairDevice({
      home: resolveHome(io.env),
      ...(values.phone
        ? {
            // The link is a secret like the line: only to this terminal, never a log or a file.
            showPhoneLink: (link: string) => {
              io.stderr.write('Scan this code with the phone (or open the link on it); it works once, for 5 minutes:\n')
              io.stdout.write(`${renderUnicodeCompact(link, { ecc: 'L', border: 2 })}\n${link}\n`)
            },
          }
        : {
            showLine: (line: string) => {
              io.stderr.write(
                'Give this one-time line to `ask-user relay join` on the new device (paste it into its input; it expires in 5 minutes):\n',
              )
              io.stdout.write(`${line}\n`)
            },
          }),
      confirm: async (request, code) => {
        io.stdout.write(`Confirmation code: ${code}\n`)
        if (request.member.role === 'desktop')
          io.stderr.write('A DESKTOP wants to join; it will be able to change the roster (pair, remove, renew).\n')
        io.stderr.write(`Pair "${request.member.name}"? Type yes only if the new device shows the same code: `)
        return (await input.next())?.trim().toLowerCase() === 'yes'
      },
    })
    io.stderr.write(`Paired "${paired.member.name}". Roster version ${paired.rosterVersion}.\n`)
    return EXIT.OK
  } finally {
    input.close()
  }
}

async function runJoin(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: { name: { type: 'string' } } })
  const input = lineReader(io.stdin)
  let line: string
  try {
    line = await readPairingLine(input, io)
  } finally {
    input.close()
  }
  const joined = await joinRelay({
    home: resolveHome(io.env),
    line,
    name: values.name ?? (hostname().trim().slice(0, 100) || 'device'),
    showCode: (code) => {
      io.stdout.write(`Confirmation code: ${code}\n`)
      io.stderr.write('Confirm on the first desktop only if it shows the same code.\n')
    },
  })
  io.stderr.write(`Joined as "${joined.member.name}". Roster version ${joined.rosterVersion}.\n`)
  return EXIT.OK
}

async function runConnect(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { name: { type: 'string' } },
  })
  if (positionals.length > 1) {
    printError(
      io,
      'relay connect takes at most one URL (checked against the pairing line); the line itself goes to stdin',
    )
    return EXIT.INVALID_INPUT
  }
  const input = lineReader(io.stdin)
  let line: string
  let recoveryCode: string | undefined
  try {
    line = await readPairingLine(input, io)
    io.stderr.write('Type the root recovery code `relay init` printed (checked here; it never leaves this machine):\n')
    recoveryCode = await input.next()
  } finally {
    input.close()
  }
  if (recoveryCode === undefined || recoveryCode.trim() === '')
    throw new RelayCliError(
      'RELAY_NO_RECOVERY_CODE',
      "No recovery code was given; type the root recovery code `relay init` printed into this command's input, after the line.",
    )
  const joined = await connectDesktop({
    home: resolveHome(io.env),
    line,
    recoveryCode,
    ...(positionals[0] === undefined ? {} : { url: positionals[0] }),
    name: values.name ?? (hostname().trim().slice(0, 100) || 'desktop'),
    showCode: (code) => {
      io.stdout.write(`Confirmation code: ${code}\n`)
      io.stderr.write('Confirm on the other desktop only if it shows the same code.\n')
    },
  })
  io.stderr.write(
    `Connected as desktop "${joined.member.name}". Roster version ${joined.rosterVersion}. This desktop can now pair, remove and renew.\n`,
  )
  return EXIT.OK
}

/** Prompts for and reads the pairing line (a secret: stdin only); an empty input is `RELAY_NO_LINE`. */
async function readPairingLine(input: ReturnType<typeof lineReader>, io: CliIo): Promise<string> {
  io.stderr.write('Paste the line from `ask-user relay pair` on a desktop of the relay:\n')
  const line = await input.next()
  if (line === undefined || line.trim() === '')
    throw new RelayCliError(
      'RELAY_NO_LINE',
      "No pairing line was given; paste the line from `ask-user relay pair` into this command's input.",
    )
  return line
}

async function runDevices(args: string[], io: CliIo): Promise<number> {
  parseArgs({ args, strict: true, allowPositionals: false, options: {} })
  const { roster, rows } = await listRoster(resolveHome(io.env))
  const day = (ms: number | undefined): string =>
    ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
  // Which desktop signed it (rosters from before the field say nothing; a removed desktop shows its id).
  const signer =
    roster.signedBy === undefined
      ? ''
      : ` on desktop "${roster.members.find((member) => member.id === roster.signedBy)?.name ?? roster.signedBy}"`
  io.stdout.write(
    `Roster version ${roster.version}, signed by the root key${signer}, valid until ${day(roster.expiresAt)}\n`,
  )
  io.stdout.write(`${['NAME', 'ROLE', 'ADDED', 'LAST RENEWAL'].join('\t')}\n`)
  for (const row of rows) io.stdout.write(`${[row.name, row.role, day(row.addedAt), day(row.renewedAt)].join('\t')}\n`)
  return EXIT.OK
}

async function runRemove(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} })
  if (positionals.length !== 1) {
    printError(io, 'relay remove needs exactly one NAME (see `ask-user relay devices`)')
    return EXIT.INVALID_INPUT
  }
  const removed = await removeMember(resolveHome(io.env), positionals[0]!)
  io.stderr.write(
    `Removed "${positionals[0]}". Roster version ${removed.rosterVersion} is published; nothing it answers is accepted from now on.\n`,
  )
  io.stderr.write(
    removed.credentialRevoked
      ? 'Its relay credential is revoked: the relay refuses it from now on.\n'
      : 'Its relay credential was not revoked here (an agent, or the relay did not take the update); it lapses at its expiry.\n',
  )
  return EXIT.OK
}

async function runRenew(args: string[], io: CliIo): Promise<number> {
  parseArgs({ args, strict: true, allowPositionals: false, options: {} })
  const renewed = await renewRelay(resolveHome(io.env))
  for (const line of renewed.lines) io.stderr.write(`${line}\n`)
  return renewed.ok ? EXIT.OK : 1
}
