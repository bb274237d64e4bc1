// A desk meeting a backlog of pending asks reads and opens several at once (OPEN_AHEAD, 8) and still lists
// them in stream order: with an opener that lets no question through until 8 are out together, a desk
// that opened one at a time would never list any.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openQuestion } from '../../../../relay/crypto'
import { RelayDesk, RemoteAsker, type QuestionOpener } from '../../../../relay/exchange'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { startRelayWorld, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
const ASKS = 20
const AHEAD = 8
let world: RelayWorld
const stop = new AbortController()

beforeAll(async () => {
  if (skip) return
  world = await startRelayWorld({ devices: ['late'], agents: ['ci'] })
}, 60_000)

afterAll(async () => {
  stop.abort()
  await world?.close()
})

it.skipIf(skip)(
  'opens up to 8 questions at once and lists them in the order they were written',
  async () => {
    const asker = new RemoteAsker({
      link: await world.link('ci'),
      agent: world.members.get('ci')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    const written: string[] = []
    for (let n = 0; n < ASKS; n++) {
      await new Promise<void>((resolve) => {
        void asker
          .ask([{ id: 'q', question: `Question ${n}?` }], {
            title: `ask ${n}`,
            signal: stop.signal,
            onEvent: (event) => {
              if (event.type !== 'asked') return
              written.push(`ask ${n}`)
              resolve()
            },
          })
          .catch(() => undefined)
      })
    }

    let inFlight = 0
    let most = 0
    let started = 0
    let openGate!: () => void
    const gate = new Promise<void>((resolve) => (openGate = resolve))
    const opener: QuestionOpener = async (bytes, options) => {
      inFlight++
      started++
      most = Math.max(most, inFlight)
      if (inFlight === AHEAD || started === ASKS) openGate()
      await gate
      try {
        return await openQuestion(bytes, options)
      } finally {
        inFlight--
      }
    }
    const desk = await RelayDesk.start({
      link: await world.link('late'),
      device: world.members.get('late')!.keys,
      rootPublicKey: world.rootPublicKey,
      opener,
    })
    try {
      const listed: string[] = []
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (desk.pending().length === ASKS) resolve()
        }
        desk.onAdded((ask) => {
          listed.push(ask.title ?? '')
          check()
        })
        check()
      })
      expect(most).toBe(AHEAD)
      expect(listed).toEqual(written)
    } finally {
      desk.close()
    }
  },
  60_000,
)
