/** Variables that hold a secret of ours; never handed on to a program we start. */
const SECRET_VARIABLES = ['ASK_USER_TOKEN'] as const

/**
 * `env` without our secrets, for a child we spawn (a harness's own CLI during set-up, the browser
 * opener): a child's environment is readable by that child and everything it starts. The token's
 * file (`ASK_USER_TOKEN_FILE`) stays: it names a path, not the secret.
 */
export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env }
  for (const name of SECRET_VARIABLES) delete out[name]
  return out
}
