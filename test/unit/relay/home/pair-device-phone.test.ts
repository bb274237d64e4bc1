// The desktop's pairing run in phone mode ("Add a phone"), against a real nats-server set up by
// `relay init --loopback`: refused with the command to run while the app or WebSocket URL is missing;
// then the link carries the offer (with the relay's WebSocket URL) in its fragment only, both sides
// compute the same code, and the phone lands in the published roster as a device.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import { pairDevice } from '../../../../relay/home/pair-device'
import { RELAY_FILES } from '../../../../relay/home/state'
import { connectRelay, joinPairingWith, parsePairFragment, type PairOffer } from '../../../../relay/pairing'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { memoryIo } from '../../cli/memory-io'
import { pipeIo } from '../../cli/relay/pipe-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone-mode pairing tests: ${skip}`)
const CHECKS = { allowOutdatedLoopback: true }

describe.skipIf(skip)('pairDevice for a phone', () => {
  let root: string
  let home: string
  let server: RunningNatsServer
  let url: string
  let wsUrl: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-phone-pair-'))
    home = join(root, 'desk-home')
    const port = await freePort()
    const wsPort = await freePort()
    url = `nats://127.0.0.1:${port}`
    wsUrl = `ws://127.0.0.1:${wsPort}`
    const io = memoryIo({ ASK_USER_HOME: home })
    const init = [
      'relay',
      'init',
      '--self-hosted',
      join(root, 'relay'),
      '--origin',
      'https://app.example',
      '--loopback',
    ]
    const ports = ['--client-port', String(port), '--ws-port', String(wsPort), '--url', url]
    expect(await main([...init, ...ports], io)).toBe(0)
    server = await startNatsServer(/start: nats-server -c (\S+)/.exec(io.out())![1]!)
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  const setSettings = async (extra: Record<string, string>): Promise<void> => {
    const path = join(home, RELAY_FILES.settings)
    const settings = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
    delete settings['websocketUrl']
    delete settings['appUrl']
    await writeFile(path, JSON.stringify({ ...settings, ...extra }))
  }

  it('refuses with RELAY_NO_PHONE_URLS naming the command while the app or WebSocket URL is missing', async () => {
    const shown: string[] = []
    await setSettings({ websocketUrl: wsUrl })
    await expect(
      pairDevice({ home, showPhoneLink: (link) => void shown.push(link), confirm: async () => true }),
    ).rejects.toMatchObject({
      code: 'RELAY_NO_PHONE_URLS',
      message: expect.stringContaining('ask-user relay app-url URL'),
    })
    await setSettings({ appUrl: 'https://app.example/' })
    await expect(
      pairDevice({ home, showPhoneLink: (link) => void shown.push(link), confirm: async () => true }),
    ).rejects.toMatchObject({ code: 'RELAY_NO_PHONE_URLS', message: expect.stringContaining('WebSocket URL') })
    expect(shown).toEqual([])
  })

  it('pairs a phone through its link: the WebSocket URL in the offer, the same code, a device in the roster', async () => {
    await setSettings({ websocketUrl: wsUrl, appUrl: 'https://app.example/ask-user/' })
    let offered!: (offer: PairOffer) => void
    const offer = new Promise<PairOffer>((resolve) => (offered = resolve))
    const codes: string[] = []
    const desk = pairDevice({
      home,
      showPhoneLink: (link, shown) => {
        const parsed = new URL(link)
        expect(parsed.origin + parsed.pathname + parsed.search).toBe('https://app.example/ask-user/')
        const fromFragment = parsePairFragment(parsed.hash, Date.now())
        expect(fromFragment).toMatchObject({ url: wsUrl, pairId: shown.pairId, expiresAt: shown.expiresAt })
        offered(fromFragment)
      },
      confirm: async (request, code) => (codes.push(code), request.member.name === 'Pixel 8'),
    })
    // The phone dials the WebSocket URL; in Node the test reaches the same server over TCP.
    const joined = await joinPairingWith(await offer, {
      name: 'Pixel 8',
      showCode: (code) => codes.push(code),
      connect: (_wsUrl, creds, name) => connectRelay(url, creds, name, CHECKS),
    })
    const paired = await desk
    expect(codes[0]).toMatch(/^\d{6}$/)
    expect(codes[1]).toBe(codes[0])
    expect(paired.member).toMatchObject({ name: 'Pixel 8', role: 'device' })
    expect(joined.roster.version).toBe(paired.rosterVersion)
    expect(joined.roster.members.map((member) => member.name)).toContain('Pixel 8')
    const list = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'devices'], list)).toBe(0)
    expect(list.out()).toMatch(/Pixel 8.*device/)
  })

  it('`relay pair --phone` prints a QR code and the link in the terminal, then asks like the line does', async () => {
    await setSettings({ websocketUrl: wsUrl, appUrl: 'https://app.example/' })
    const desk = pipeIo({ ASK_USER_HOME: home })
    const pairing = main(['relay', 'pair', '--phone'], desk)
    const link = (await desk.waitForOut(/^(https:\/\/app\.example\/#pair=[A-Za-z0-9_-]+)$/m))[1]!
    // The QR code (Unicode half blocks) comes before the link.
    expect(desk.out().indexOf('█')).toBeGreaterThanOrEqual(0)
    expect(desk.out().indexOf('█')).toBeLessThan(desk.out().indexOf(link))
    const offer = parsePairFragment(new URL(link).hash, Date.now())
    expect(offer.url).toBe(wsUrl)
    const codes: string[] = []
    const joining = joinPairingWith(offer, {
      name: 'Pixel 9',
      showCode: (code) => codes.push(code),
      connect: (_wsUrl, creds, name) => connectRelay(url, creds, name, CHECKS),
    })
    const deskCode = (await desk.waitForOut(/Confirmation code: (\d{6})/))[1]
    desk.stdin.write('yes\n')
    expect(await pairing).toBe(0)
    await joining
    expect(codes).toEqual([deskCode])
    expect(desk.err()).toMatch(/Paired "Pixel 9"/)
  })
})
