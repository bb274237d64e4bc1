// Imported first by main.ts, before any schema exists: the page's CSP forbids eval, so zod's compiled
// fast path could never run here, and probing for it (when the first object schema is built) would
// raise a CSP violation on every page load.
import { z } from 'zod'

z.config({ jitless: true })
