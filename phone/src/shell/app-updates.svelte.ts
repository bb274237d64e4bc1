// The service worker's registration and its updates. A new version never takes over by itself: the
// worker waits (it does not call skipWaiting on install), the page shows "Update", and only the
// person's tap tells the waiting worker to activate; the page then reloads into the new version.

import { ACTIVATE_MESSAGE } from './update-message'

/** The only script URL the page hands the browser: its own service worker. */
const WORKER_URL = './sw.js'

/**
 * The worker's URL as Trusted Types want it: the page enforces them (`require-trusted-types-for
 * 'script'`), and `register()` is a script-URL sink. The policy (named in the CSP) passes that one URL
 * and refuses every other.
 */
function workerUrl(): string {
  const types = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): unknown } }).trustedTypes
  if (types === undefined) return WORKER_URL
  const policy = types.createPolicy('ask-user-sw', {
    createScriptURL: (url: string) => {
      if (url !== WORKER_URL) throw new TypeError(`not the app's service worker: ${url}`)
      return url
    },
  }) as { createScriptURL(url: string): string }
  return policy.createScriptURL(WORKER_URL)
}

/** What the shell shows about updates. */
export class AppUpdates {
  /** A newer version is installed and waiting for the person's tap. */
  waiting = $state(false)
  /** The service worker could not be registered (the app still works while open, without push). */
  failed = $state<string | undefined>()
  #registration: ServiceWorkerRegistration | undefined

  /** Registers `./sw.js` and follows its updates. Does nothing where service workers do not exist. */
  async start(container: ServiceWorkerContainer | undefined = navigator.serviceWorker): Promise<void> {
    if (container === undefined) return
    try {
      const registration = await container.register(workerUrl(), { scope: './' })
      this.#registration = registration
      this.#follow(registration)
      // Activated after the person's tap: the page reloads once so that page and worker are one version.
      let reloading = false
      container.addEventListener('controllerchange', () => {
        if (reloading || !this.#tapped) return
        reloading = true
        location.reload()
      })
    } catch (error) {
      this.failed = error instanceof Error ? error.message : String(error)
    }
  }

  /** Called from the "Update" button only. */
  activate(): void {
    const waiting = this.#registration?.waiting
    if (!waiting) return
    this.#tapped = true
    waiting.postMessage(ACTIVATE_MESSAGE)
  }

  #tapped = false

  #follow(registration: ServiceWorkerRegistration): void {
    // A controlled page with a worker already waiting (installed on an earlier visit).
    if (registration.waiting && navigator.serviceWorker.controller) this.waiting = true
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing
      installing?.addEventListener('statechange', () => {
        // "installed" with a controller present = an update waiting; without one it is the first install.
        if (installing.state === 'installed' && navigator.serviceWorker.controller) this.waiting = true
      })
    })
  }
}
