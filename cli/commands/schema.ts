import { createAskUserQuestionTool } from '../../agent/tool-definition'
import type { Command } from '../io'
import { EXIT, refuseArguments } from '../io'

const HELP = `Usage: ask-user schema

Prints the ask_user_question tool definition as JSON: {name, title, description, inputSchema,
annotations}, the input schema inline (JSON Schema 2020-12, no $ref) and the annotations as MCP
defines them, for harnesses that register tools from a definition.
`

/** `ask-user schema`: prints `{name, title, description, inputSchema, annotations}` as pretty JSON and a newline. */
export const run: Command = async (args, io) => {
  const refused = refuseArguments(args, io, 'schema', HELP)
  if (refused !== undefined) return refused
  const { name, title, description, inputSchema, annotations } = createAskUserQuestionTool()
  io.stdout.write(`${JSON.stringify({ name, title, description, inputSchema, annotations }, null, 2)}\n`)
  return EXIT.OK
}
