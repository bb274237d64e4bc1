// Placeholder until the tool definition lands (agent side).
import type { Command } from '../io'

export const run: Command = async (_args, io) => {
  io.stdout.write('{}\n')
  return 0
}
