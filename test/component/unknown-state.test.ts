// Whenever the window is not connected, it never says "Nothing to answer": the empty inbox says what
// waits is not known, the count reads "?", and the notices from before the loss are greyed.
import { cleanup, screen } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BridgeStatus } from '../../shared/bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

const notice = {
  noticeId: 'n1',
  agent: { name: 'builder' },
  notice: { kind: 'turn-complete' as const, text: 'Build finished' },
  receivedAt: 0,
}

describe('the inbox while not connected', () => {
  it.each<BridgeStatus>(['connecting', 'closed', 'unreachable', 'signed-out', 'unverified', 'alarm'])(
    '%s: no all-clear, an unknown count, greyed notices',
    async (status) => {
      const { bridge } = await renderInbox([])
      await bridge.emit({ type: 'snapshot', pending: [], notices: [notice] })
      expect(screen.getByTestId('empty-inbox')).toBeTruthy()
      expect(screen.getByTestId('pending-count').textContent).toBe('0 pending')
      expect(screen.getByTestId('notices').dataset.stale).toBe('false')
      await bridge.setStatus(status)
      expect(screen.queryByTestId('empty-inbox')).toBeNull()
      expect(screen.queryByText('Nothing to answer')).toBeNull()
      expect(screen.getByTestId('inbox-unknown').dataset.status).toBe(status)
      expect(screen.getByTestId('pending-count').textContent?.trim()).toBe('? pending')
      expect(screen.getByTestId('notices').dataset.stale).toBe('true')
      expect(document.title).toBe('(?) Ask User Companion')
      await bridge.setStatus('open')
      expect(screen.getByTestId('empty-inbox')).toBeTruthy()
      expect(document.title).toBe('Ask User Companion')
    },
  )
})
