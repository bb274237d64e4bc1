// The names of Claude Code's hook tool, apart from its zod schema: `ask-user mcp` reads its flag
// before zod loads (docs/performance.md, "Start-up of spawned commands").
import { SERVER_NAME } from '../setup-steps'

/** The hook tool's name, served only by `ask-user mcp --claude-code-hooks`. */
export const HOOK_TOOL_NAME = 'claude_code_hook'

/** The `ask-user mcp` flag that adds {@link HOOK_TOOL_NAME} to the tools; setup passes it for Claude Code alone. */
export const HOOK_TOOL_FLAG = '--claude-code-hooks'

/** The permission rule that hides the hook tool from the model (a hook's own call skips permission rules). */
export const HOOK_TOOL_DENY_RULE = `mcp__${SERVER_NAME}__${HOOK_TOOL_NAME}`
