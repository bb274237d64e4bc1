// Test helper: a full garbage collection on demand (without starting node with --expose-gc), so heap
// figures compare live data, not garbage not yet collected.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/** Collects garbage, then returns the heap in use (bytes). */
export function heapAfterGc(): number {
  collect()
  return process.memoryUsage().heapUsed
}
