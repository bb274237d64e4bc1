// Qwen Code: a fork of Gemini CLI with the same `mcp add` flags. MCP only: no hooks, no askpass setting.
import { geminiStyleMcp } from './gemini'
import type { Harness } from './harness'

/** Qwen Code, as `ask-user setup` and the Connect panel know it. */
export const qwen = {
  id: 'qwen',
  name: 'Qwen Code',
  connectNote: 'noteQwen',
  published: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  mcp: (info) => geminiStyleMcp('qwen', '.qwen', info, []),
} as const satisfies Harness
