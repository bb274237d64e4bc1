/**
 * True for a plain JSON object: not `null`, not an array. The one guard for "may I read keys off this
 * decoded value"; zod-free, so the lean bundles (hooks, MCP replies) can use it too.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
