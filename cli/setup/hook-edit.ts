/**
 * Pure edits of a harness's `hooks` map (Claude Code's and Gemini CLI's settings.json, Codex's
 * hooks.json): `hooks.<event>` is an array of groups `{matcher?, hooks: [{type, command, …}]}`. Our
 * group is the one whose handlers all run `… hook <harness>`; every other group is left as it was.
 */
import { SERVER_NAME } from '../../integrations/setup-steps'
import { ConfigFileError, getAt, sameJson, setAt, deleteAt, type JsonObject } from './json-edit'

/**
 * True for a handler that runs `ask-user hook <harness>` (from this install or an earlier one), or
 * an `mcp_tool` handler calling our MCP server (Claude Code's; only its hooks are of that type).
 */
export function isOurHandler(handler: unknown, harness: string): boolean {
  if (handler === null || typeof handler !== 'object') return false
  if ((handler as JsonObject)['type'] === 'mcp_tool') return (handler as JsonObject)['server'] === SERVER_NAME
  const command = (handler as JsonObject)['command']
  return typeof command === 'string' && /ask-user/.test(command) && command.trimEnd().endsWith(` hook ${harness}`)
}

function isOurGroup(group: unknown, harness: string): boolean {
  if (group === null || typeof group !== 'object') return false
  const handlers = (group as JsonObject)['hooks']
  return Array.isArray(handlers) && handlers.length > 0 && handlers.every((handler) => isOurHandler(handler, harness))
}

function groupsAt(root: JsonObject, event: string): unknown[] | undefined {
  const groups = getAt(root, ['hooks', event])
  if (groups === undefined) return undefined
  if (!Array.isArray(groups)) throw new ConfigFileError(`"hooks.${event}" is not an array`)
  return groups
}

/** Puts `group` in `hooks.<event>`, replacing an older group of ours; true when that changed anything. */
export function addHookGroup(root: JsonObject, event: string, group: JsonObject, harness: string): boolean {
  const groups = groupsAt(root, event) ?? []
  const ours = groups.filter((g) => isOurGroup(g, harness))
  if (ours.length === 1 && sameJson(ours[0], group)) return false
  const others = groups.filter((g) => !isOurGroup(g, harness))
  return setAt(root, ['hooks', event], [...others, group])
}

/** Takes our groups out of `hooks.<event>` (the event and `hooks` too when left empty); true when any was there. */
export function removeHookGroups(root: JsonObject, event: string, harness: string): boolean {
  const groups = groupsAt(root, event)
  if (groups === undefined || !groups.some((g) => isOurGroup(g, harness))) return false
  const others = groups.filter((g) => !isOurGroup(g, harness))
  if (others.length > 0) return setAt(root, ['hooks', event], others)
  return deleteAt(root, ['hooks', event])
}
