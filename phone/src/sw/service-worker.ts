// The phone app's service worker (built to out/phone/sw.js as one classic script). Placeholder lifecycle
// until the app work lands; push and notification taps go to push-handlers.ts.
/// <reference lib="webworker" />
import { onNotificationClick, onPush } from './push-handlers'

declare const self: ServiceWorkerGlobalScope

self.addEventListener('push', (event) => {
  event.waitUntil(onPush(self, event.data ? new Uint8Array(event.data.arrayBuffer()) : undefined))
})

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(onNotificationClick(self, event.notification))
})
