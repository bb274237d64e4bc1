/**
 * Variables that hold a secret of ours; never handed on to a program we start. `ASK_USER_RELAY` is an
 * agent's whole relay file inline (credential and private keys, for CI secret stores).
 */
const SECRET_VARIABLES = ['ASK_USER_TOKEN', 'ASK_USER_RELAY'] as const

/**
 * `env` without our secrets, for a child we spawn (a harness's own CLI during set-up, the browser
 * opener): a child's environment is readable by that child and everything it starts. The files that
 * hold them (`ASK_USER_TOKEN_FILE`, `ASK_USER_RELAY_FILE`) stay: they name a path, not the secret.
 */
export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env }
  for (const name of SECRET_VARIABLES) delete out[name]
  return out
}

/**
 * Takes the inline relay file out of `env` (the process's own environment) and returns a copy that still
 * has it, for the command to read. From then on nothing `ask-user` starts inherits it, whether or not the
 * spawn passes {@link childEnvironment} (sudo's askpass helpers run `ps` and `stty` with the defaults).
 */
export function withInlineSecretsTakenOut(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env }
  delete env['ASK_USER_RELAY']
  return copy
}
