// Cancel in "Add a phone", end to end through main's pairing IPC (strict fake Electron) and the real
// desktop pairing run against a real nats-server: Cancel withdraws the offer on the relay at once, so a
// phone that scans the code afterwards is told "cancelled on the desktop" straight away instead of
// waiting for the offer to expire, and the window hears nothing more of that pairing.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../cli/main'
import { setupPhonePairing } from '../../../electron/main/phone-pairing'
import { BUCKETS } from '../../../relay/nats/templates'
import { connectRelay, getEntry, joinPairingWith, parsePairFragment } from '../../../relay/pairing'
import { IPC_CHANNELS, type PhonePairState } from '../../../shared/ipc'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { WAIT_MS } from '../../helpers/waits'
import { memoryIo } from '../cli/memory-io'
import { asElectron, fake, FakeBrowserWindow, ipcEvent, resetFakeElectron } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronMock())

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the "Add a phone" Cancel test: ${skip}`)
const APP = 'app://companion/index.html'
const CHECKS = { allowOutdatedLoopback: true }

describe.skipIf(skip)('Cancel in "Add a phone" against a real relay', () => {
  let root: string
  let home: string
  let server: RunningNatsServer
  let url: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'phone-pair-cancel-'))
    home = join(root, 'desk-home')
    const port = await freePort()
    const wsPort = await freePort()
    url = `nats://127.0.0.1:${port}`
    const io = memoryIo({ ASK_USER_HOME: home })
    const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://app.example']
    const ports = ['--loopback', '--client-port', String(port), '--ws-port', String(wsPort), '--url', url]
    expect(await main([...init, ...ports], io)).toBe(0)
    server = await startNatsServer(/start: nats-server -c (\S+)/.exec(io.out())![1]!)
    const urls = ['relay', 'app-url', 'https://app.example/', '--websocket-url', `ws://127.0.0.1:${wsPort}`]
    expect(await main(urls, memoryIo({ ASK_USER_HOME: home }))).toBe(0)
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })
  beforeEach(() => resetFakeElectron())

  it('withdraws the offer at once: a phone that scans it later is told it was cancelled on the desktop', async () => {
    const window = new FakeBrowserWindow({ width: 800, height: 600 })
    window.webContents.mainFrame.url = APP
    const refusals: string[] = []
    const dispose = setupPhonePairing({
      ipcMain: asElectron(fake.ipcMain, 'IpcMain'),
      window: asElectron(window, 'BrowserWindow'),
      home,
      isAppUrl: (candidate) => candidate === APP,
      onRefused: (reason) => void refusals.push(reason),
    })
    try {
      const states = (): PhonePairState[] => window.webContents.on_(IPC_CHANNELS.phonePairState) as PhonePairState[]
      fake.ipcMain.emit(IPC_CHANNELS.phonePairStart, ipcEvent(window.webContents))
      await vi.waitFor(() => expect(states()[0]?.state).toBe('offer'), { timeout: WAIT_MS })
      const offered = states()[0] as Extract<PhonePairState, { state: 'offer' }>
      const offer = parsePairFragment(new URL(offered.link).hash, Date.now())
      fake.ipcMain.emit(IPC_CHANNELS.phonePairDecide, ipcEvent(window.webContents), {
        pairId: offered.pairId,
        confirm: false,
      })

      // Before any phone asks, the relay holds the withdrawal (read with the offer's own credential).
      const nc = await connectRelay(url, offer.creds, offer.pairId, CHECKS)
      try {
        await vi.waitFor(
          async () => {
            const reply = await getEntry(nc, BUCKETS.pair, `resp.${offer.pairId}`)
            expect(reply && JSON.parse(new TextDecoder().decode(reply.value))).toEqual({
              v: 1,
              t: 'declined',
              pairId: offer.pairId,
              reason: 'cancelled',
            })
          },
          { timeout: WAIT_MS, interval: 100 },
        )
      } finally {
        await nc.close()
      }

      // A phone that scans the code now is told at once, long before the offer's expiry...
      const codes: string[] = []
      const scanned = Date.now()
      await expect(
        joinPairingWith(offer, {
          name: 'Late phone',
          showCode: (code) => void codes.push(code),
          connect: (_wsUrl, creds, name) => connectRelay(url, creds, name, CHECKS),
        }),
      ).rejects.toMatchObject({
        code: 'RELAY_PAIR_CANCELLED',
        message:
          'The pairing was cancelled on the desktop; nothing was paired. Start pairing there again and use the new code.',
      })
      // ...and never shown a code to compare: the pairing was over before it asked.
      expect(codes).toEqual([])
      expect(offer.expiresAt - Date.now()).toBeGreaterThan(30_000)
      expect(Date.now() - scanned).toBeLessThan(WAIT_MS)
      // The window left this pairing on Cancel: no later state of it, nothing refused.
      expect(states().map((state) => state.state)).toEqual(['offer'])
      expect(refusals).toEqual([])
      const devices = memoryIo({ ASK_USER_HOME: home })
      expect(await main(['relay', 'devices'], devices)).toBe(0)
      expect(devices.out()).not.toContain('Late phone')
    } finally {
      dispose()
    }
  })
})
