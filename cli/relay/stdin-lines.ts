// Reads the person's input one line at a time: the pairing line on the new device, "yes" on the desktop.
// Secrets come in on stdin so they never appear in argv (`ps`, shell history).
import { createInterface } from 'node:readline'

/** A reader of `input`'s lines; `next()` resolves undefined at end of input. `close()` releases it. */
export function lineReader(input: NodeJS.ReadableStream): {
  next: () => Promise<string | undefined>
  close: () => void
} {
  const rl = createInterface({ input, crlfDelay: Infinity, terminal: false })
  const lines = rl[Symbol.asyncIterator]()
  return {
    next: async () => {
      const result = await lines.next()
      return result.done === true ? undefined : result.value
    },
    close: () => rl.close(),
  }
}
