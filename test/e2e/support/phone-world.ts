// The set-up of the phone browser specs that talk to a relay: the built phone app served from 127.0.0.1,
// and a real nats-server world whose WebSocket listener allows exactly that app's origin.
import { startRelayWorld, type RelayWorld } from '../../unit/relay/exchange/relay-world'
import { ensurePhoneBuilt, PHONE_DIR } from './phone-build'
import { serveStatic, type StaticServer } from './static-server'

/** Who the world's roster lists (as startRelayWorld takes them), without the origin this helper sets. */
export type PhoneWorldPeople = Omit<Parameters<typeof startRelayWorld>[0], 'browserOrigin'>

/** Builds out/phone once per run, serves it, and starts the relay world for it. Close both after. */
export async function startPhoneWorld(people: PhoneWorldPeople): Promise<{ app: StaticServer; world: RelayWorld }> {
  await ensurePhoneBuilt()
  const app = await serveStatic(PHONE_DIR)
  try {
    return { app, world: await startRelayWorld({ ...people, browserOrigin: app.origin }) }
  } catch (error) {
    await app.close()
    throw error
  }
}
