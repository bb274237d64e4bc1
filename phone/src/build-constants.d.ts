// Values the phone build writes into the code (vite.phone.config.mts `define`).

/** The app's version: the package version and the commit it was built from (`0.1.0+abc1234567`). */
declare const __APP_VERSION__: string
/** The service worker only: every file of the app, to keep for offline use. */
declare const __PRECACHE__: string[]
/** The service worker only: the cache of this exact build. */
declare const __CACHE_NAME__: string
