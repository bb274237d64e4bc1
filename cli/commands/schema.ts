import { createAskUserQuestionTool } from '../../agent/tool-definition'
import type { Command } from '../io'
import { EXIT, refuseArguments } from '../io'

const HELP = `Usage: ask-user schema

Prints the ask_user_question tool definition as JSON: {name, description, inputSchema}, the input
schema inline (JSON Schema 2020-12, no $ref), for harnesses that register tools from a definition.
`

/** `ask-user schema`: prints `{name, description, inputSchema}` as pretty JSON and a newline. */
export const run: Command = async (args, io) => {
  const refused = refuseArguments(args, io, 'schema', HELP)
  if (refused !== undefined) return refused
  const { name, description, inputSchema } = createAskUserQuestionTool()
  io.stdout.write(`${JSON.stringify({ name, description, inputSchema }, null, 2)}\n`)
  return EXIT.OK
}
