import { z } from 'zod'

/** How an agent process on this machine runs `ask-user`: an absolute command and the arguments before the subcommand. */
export const CommandLineSchema = z.object({ command: z.string().min(1), args: z.array(z.string()) })
export type CommandLine = z.infer<typeof CommandLineSchema>

/**
 * What a window needs to show "Connect an agent": the `ask-user` of this install, the environment an
 * agent must pass on (the companion's `ASK_USER_HOME`), and the OS (for quoting and file paths).
 */
export const ConnectInfoSchema = z.object({
  commandLine: CommandLineSchema,
  env: z.record(z.string(), z.string()),
  platform: z.enum(['darwin', 'linux', 'win32', 'other']),
})
export type ConnectInfo = z.infer<typeof ConnectInfoSchema>
