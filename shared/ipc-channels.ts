// The IPC channel names alone, without the payload schemas: the preload imports only this, so zod stays
// out of the preload bundle (shared/ipc.ts has the schemas main parses with).

/**
 * IPC channels between the Electron main process and the question window's preload. Main listens only
 * on the renderer → main channels below (it drops every other channel and every foreign sender); the
 * payload of `send` is a `UiClientFrame` (ui.ts), parsed once in main (the renderer is less privileged);
 * `uiFrame` payloads come from main and are not parsed again in the preload.
 */
export const IPC_CHANNELS = {
  /** renderer → main, no payload: attach this window to the companion; a `snapshot` frame follows. */
  subscribe: 'companion:subscribe',
  /** renderer → main: one `UiClientFrame` (`ask/answer`, `ask/decide`, `ask/dismiss`, `notice/dismiss`, `history/get`). */
  send: 'companion:send',
  /** main → renderer: one `UiServerFrame`. */
  uiFrame: 'companion:ui-frame',
  /** main → renderer: a `FocusAskRequest`; the person clicked an ask in the tray or a notification. */
  focusAsk: 'companion:focus-ask',
  /** renderer → main: a `ShownAskReport`; which ask the window shows now (for notification rules). */
  shown: 'companion:shown',
  /** renderer → main: an `OpenLinkRequest`; the person clicked a link in agent text. */
  openLink: 'companion:open-link',
  /**
   * renderer → main, no payload: start pairing a phone ("Add a phone"); main answers on `phonePairState`.
   * Only this window's IPC may pair: the UI channel refuses every pairing frame (shared/ui.ts ANSWERER_CHANGES).
   */
  phonePairStart: 'companion:phone-pair-start',
  /** renderer → main: a `PhonePairDecision`; the person confirmed or declined (or cancelled) that pairing. */
  phonePairDecide: 'companion:phone-pair-decide',
  /** main → renderer: a `PhonePairState`; where the phone pairing stands (QR, code to confirm, result). */
  phonePairState: 'companion:phone-pair-state',
  /**
   * renderer → main: a `RelayChangeRequest`; the person changed the relay in the Relay view (mirroring,
   * remote passwords, removing a device). Only this window's IPC carries it: the UI channel refuses it.
   */
  relayChange: 'companion:relay-change',
  /** main → renderer: a `RelayChangeResult` for each `relayChange`, once it is applied or refused. */
  relayChangeResult: 'companion:relay-change-result',
} as const
