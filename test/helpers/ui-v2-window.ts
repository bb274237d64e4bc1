// Test helper: a window speaking UI channel v2 over the companion's WebSocket (`/v1/ui`, subprotocol
// `ask-user.ui.v2`), as today's page does; frames are checked against shared/ui.ts's schema.
import { WebSocket } from 'ws'
import {
  SECRETS_MASKED_QUERY,
  UI_SUBPROTOCOL,
  UiServerFrameSchema,
  type UiClientFrame,
  type UiServerFrame,
} from '../../shared/ui'
import { createFrameQueue, type FrameQueue } from './frame-queue'

/** An open v2 window: every frame it got, a wait by predicate, and a way to send. */
export interface V2Window {
  frames: FrameQueue<UiServerFrame>
  send(frame: UiClientFrame): void
  close(): Promise<void>
}

/** Connects with the companion's window credential; `masksSecrets` adds `?secrets=masked` (default true, as the page). */
export async function openV2Window(
  target: { uiUrl: string; windowCredential: () => string },
  options: { masksSecrets?: boolean } = {},
): Promise<V2Window> {
  const url = options.masksSecrets === false ? target.uiUrl : `${target.uiUrl}?${SECRETS_MASKED_QUERY}`
  const socket = new WebSocket(url, [UI_SUBPROTOCOL, `token.${target.windowCredential()}`])
  const frames = createFrameQueue<UiServerFrame>('v2 window')
  socket.on('message', (data) => frames.push(UiServerFrameSchema.parse(JSON.parse(String(data)))))
  socket.on('close', () => frames.end())
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  await frames.next((frame) => frame.type === 'snapshot')
  return {
    frames,
    send: (frame) => socket.send(JSON.stringify(frame)),
    close: async () => {
      if (socket.readyState === WebSocket.CLOSED) return
      const closed = new Promise((resolve) => socket.once('close', resolve))
      socket.close()
      await closed
    },
  }
}
