import { spawn } from 'node:child_process'
import { errorMessage } from '../../shared/describe-error'
import { childEnvironment } from '../child-env'
import type { CliIo } from '../io'

/**
 * Opens `url` in the default browser; failures only warn on stderr. The URL is in the opener's argv,
 * which every local user can read: pass only a one-time link (`#code=…`), never a credential.
 */
export function openBrowser(url: string, io: Pick<CliIo, 'stderr'>): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]]
  const warn = (why: string): void =>
    void io.stderr.write(`Warning: could not open a browser (${why}); open the link above yourself within 60 s\n`)
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, env: childEnvironment(process.env) })
    child.once('error', (error) => warn(error.message))
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) warn(`${command} exited with ${code}`)
    })
    child.unref()
  } catch (error) {
    warn(errorMessage(error))
  }
}
