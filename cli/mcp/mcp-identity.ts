// What the MCP server says of itself in its `initialize` result. Kept free of zod and of the MCP SDK,
// so that `ask-user mcp` can answer `initialize` before those load (cli/mcp/early-replies.ts).

/** The MCP server's `serverInfo.name`. */
export const MCP_SERVER_NAME = 'ask-user'

/** The server's capabilities: one tool, no list-changed notifications. Returns a fresh copy. */
export function mcpServerCapabilities(): { tools: Record<string, never> } {
  return { tools: {} }
}

/** The `instructions` of the `initialize` result. */
export const MCP_INSTRUCTIONS =
  'ask_user_question puts structured questions to the person through the Ask User Companion desktop ' +
  'app and waits for the answer.'
