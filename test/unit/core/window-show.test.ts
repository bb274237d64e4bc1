// `POST /v1/window/show` on a companion without a window of its own (`ask-user serve`): 404
// NO_OWN_WINDOW with the window credential, so `ask-user open` falls back to a one-time link.
import { afterEach, expect, it } from 'vitest'
import { WINDOW_SHOW_PATH } from '../../../shared/window-link'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'

let t: TestCompanion | undefined
afterEach(() => t?.cleanup())

const show = (tc: TestCompanion, bearer: string): Promise<Response> =>
  fetch(new URL(WINDOW_SHOW_PATH, tc.companion.pageUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}` },
  })

it('a served companion has no window to raise: 404 NO_OWN_WINDOW; a desktop one raises it once per request', async () => {
  t = await startTestCompanion({ writeDiscovery: false })
  const served = await show(t, t.companion.windowCredential())
  expect(served.status).toBe(404)
  expect(await served.json()).toEqual({
    code: 'NO_OWN_WINDOW',
    message: 'this companion has no window of its own (ask-user serve): open its page with a one-time link',
  })
  await t.cleanup()
  let raised = 0
  t = await startTestCompanion({ writeDiscovery: false, showWindow: () => void (raised += 1) })
  expect((await show(t, t.companion.token)).status).toBe(401)
  expect(raised).toBe(0)
  const desktop = await show(t, t.companion.windowCredential())
  expect(desktop.status).toBe(200)
  expect(await desktop.json()).toEqual({ shown: true })
  expect(raised).toBe(1)
})
