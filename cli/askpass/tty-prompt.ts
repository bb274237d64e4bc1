import { spawnSync } from 'node:child_process'
// eslint-disable-next-line no-restricted-imports -- the controlling terminal, not a file: nothing is created or kept
import { closeSync, openSync, readSync, writeSync } from 'node:fs'

/**
 * Asks on the controlling terminal (`/dev/tty`) when there is one and no companion: the person's own
 * prompts keep working. `secret` turns echo off while typing (with `stty`). Resolves the line typed
 * (without its newline), or undefined when there is no terminal or it ended (Ctrl-D).
 */
export function askOnTerminal(prompt: string, secret: boolean): string | undefined {
  let fd: number
  try {
    fd = openSync('/dev/tty', 'r+')
  } catch {
    return undefined // no controlling terminal (ENXIO), as under an agent
  }
  const stty = (arg: string): void => void spawnSync('stty', [arg], { stdio: [fd, 'ignore', 'ignore'] })
  try {
    writeSync(fd, prompt)
    if (secret) stty('-echo')
    const line = readLine(fd)
    if (secret) writeSync(fd, '\n')
    return line
  } finally {
    if (secret) stty('echo')
    closeSync(fd)
  }
}

function readLine(fd: number): string | undefined {
  const bytes: number[] = []
  const one = Buffer.alloc(1)
  for (;;) {
    let read: number
    try {
      read = readSync(fd, one, 0, 1, null)
    } catch {
      return undefined
    }
    if (read === 0) return bytes.length > 0 ? Buffer.from(bytes).toString('utf8') : undefined
    if (one[0] === 0x0a) return Buffer.from(bytes).toString('utf8').replace(/\r$/, '')
    bytes.push(one[0]!)
  }
}
