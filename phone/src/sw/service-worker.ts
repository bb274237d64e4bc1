// The phone app's service worker (built to out/phone/sw.js as one classic script). It keeps this build's
// files for offline use, never takes over from an older version without the person's tap ("Update" in
// the page posts ACTIVATE_MESSAGE), and hands pushes and notification taps to push-handlers.ts.
/// <reference lib="webworker" />
import { ACTIVATE_MESSAGE } from '../shell/update-message'
import { onNotificationClick, onPush } from './push-handlers'

declare const self: ServiceWorkerGlobalScope

self.addEventListener('install', (event) => {
  // No skipWaiting here: a new version waits until the person agrees.
  event.waitUntil(caches.open(__CACHE_NAME__).then((cache) => cache.addAll(__PRECACHE__)))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== __CACHE_NAME__).map((name) => caches.delete(name)))),
  )
})

self.addEventListener('message', (event) => {
  if (event.data === ACTIVATE_MESSAGE) void self.skipWaiting()
})

// The app's own files from this build's cache (the page then runs the version this worker belongs to);
// anything else — there is nothing else but the relay's WebSocket, which never passes here — goes out.
self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return
  event.respondWith(
    caches.open(__CACHE_NAME__).then(async (cache) => {
      const cached = await cache.match(request, { ignoreSearch: true })
      return cached ?? fetch(request)
    }),
  )
})

self.addEventListener('push', (event) => {
  event.waitUntil(onPush(self, event.data ? new Uint8Array(event.data.arrayBuffer()) : undefined))
})

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(onNotificationClick(self, event.notification))
})
