// What the service worker does with a push and with a tap on its notification. Placeholder until the
// push work lands: every push shows the generic notice (a push must always show a notification).

/** What the handlers need from the service worker's global scope (a test passes the real one). */
export interface PushScope {
  registration: ServiceWorkerRegistration
  clients: Clients
}

/** Shows the notification for one push payload (`undefined`: the push carried none). */
export async function onPush(scope: PushScope, _payload: Uint8Array | undefined): Promise<void> {
  await scope.registration.showNotification('New question', { tag: 'ask-user-generic' })
}

/** Opens (or focuses) the app on the ask the tapped notification is about. */
export async function onNotificationClick(scope: PushScope, notification: Notification): Promise<void> {
  notification.close()
  const open = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const client = open[0]
  if (client !== undefined && 'focus' in client) await (client as WindowClient).focus()
  else await scope.clients.openWindow('./')
}
