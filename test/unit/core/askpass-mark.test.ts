// Class 5: the companion sets the askpass mark itself, only for a connection whose peer process it
// traced (Linux: peer port -> /proc/net/tcp inode -> /proc/<pid>/fd) to this install's helper.
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { peerSocketInode } from '../../../core/peer-process'
import { CHECKOUT_CONNECT, HELPER, nextCard, openInbox, typeAnswer, type Inbox } from '../askpass/real-programs'
import { openAgent } from './raw-agent'

describe('the peer socket row in /proc/net/tcp', () => {
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n'
  const row = (local: string, remote: string, state: string, inode: string) =>
    `   0: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0 20 4 -1\n`
  it('takes only the established row from 127.0.0.1:peer to 127.0.0.1:server', () => {
    const tcp =
      header +
      row('0100007F:9C40', '0100007F:1F90', '0A', '111') +
      row('0100007F:9C40', '0100007F:1F91', '01', '222') +
      row('0100007F:9C40', '0100007F:1F90', '01', '333')
    expect(
      peerSocketInode({ peerPort: 0x9c40, serverPort: 0x1f90 }, (path) => (path.endsWith('tcp') ? tcp : header)),
    ).toBe('333')
    expect(
      peerSocketInode({ peerPort: 0x9c41, serverPort: 0x1f90 }, (path) => (path.endsWith('tcp') ? tcp : header)),
    ).toBeUndefined()
  })
})

const skip = process.platform === 'linux' ? undefined : 'peer processes are traced through /proc on Linux only'

describe.skipIf(skip !== undefined)('who gets the askpass mark', () => {
  let inbox: Inbox
  beforeAll(async () => {
    expect(CHECKOUT_CONNECT).toBeDefined()
    inbox = await openInbox()
  })
  afterAll(async () => inbox?.close())

  // Each card is answered, not dismissed: a dismissal silences the helper for this parent for a minute.
  /** Starts the real helper with `env` and resolves with its card; the helper is left waiting. */
  const startHelper = async (env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [HELPER, 'Password: '], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...inbox.env, ...env },
      stdio: 'ignore',
    })
    const exited = new Promise((resolve) => child.once('close', resolve))
    const card = await nextCard(inbox)
    return { child, card, exited }
  }

  it('the real helper gets the mark, naming its parent from the kernel (here node, so not verified)', async () => {
    const { card, exited } = await startHelper()
    expect(card.askpass).toEqual({ receiver: 'node', verified: false })
    await typeAnswer(inbox, card, 'not-a-password')
    await exited
  })

  it('the helper with NODE_OPTIONS (code loaded into it) gets no mark', async () => {
    const { card, exited } = await startHelper({ NODE_OPTIONS: '--no-warnings' })
    expect(card.askpass).toBeUndefined()
    await typeAnswer(inbox, card, 'not-a-password')
    await exited
  })

  it("a token holder calling itself ask-user-askpass, claiming a waiting helper's pid and sending a mark of its own, gets none", async () => {
    const helper = await startHelper()
    expect(helper.card.askpass).toBeDefined()
    const agent = await openAgent(inbox.test.companion)
    agent.send({
      type: 'hello',
      protocol: 1,
      client: {
        name: 'ask-user-askpass',
        version: '1',
        pid: helper.child.pid,
        askpass: { receiver: 'sudo', verified: true },
      },
    })
    await agent.next((frame) => frame.type === 'welcome')
    agent.send({
      type: 'ask',
      id: 'x',
      title: 'sudo -k id -u',
      askpass: { receiver: 'sudo', verified: true },
      questions: [
        {
          id: 'askpass',
          question: '[sudo] password for you:',
          detail: 'The answer goes only to `sudo`.',
          askpass: { receiver: 'sudo', verified: true },
        },
      ],
    })
    const forged = await inbox.masked.nextAsk((ask) => ask.title === 'sudo -k id -u')
    expect(forged.agent.name).toBe('ask-user-askpass')
    expect(forged.askpass).toBeUndefined()
    expect(JSON.stringify(forged.questions)).not.toContain('verified')
    agent.socket.close()
    await typeAnswer(inbox, helper.card, 'not-a-password')
    await helper.exited
  })
})
