import { join } from 'node:path'
import { SHELL_BLOCK_END, SHELL_BLOCK_START } from '../../integrations/askpass'
import { readText, userHome, writeText } from './client-files'

/** The profile a login shell of `$SHELL` reads: ~/.zshrc for zsh, ~/.bashrc for bash, else ~/.profile. */
export function profileFile(env: NodeJS.ProcessEnv): string {
  const shell = env['SHELL'] ?? ''
  const name = shell.endsWith('zsh') ? '.zshrc' : shell.endsWith('bash') ? '.bashrc' : '.profile'
  return join(userHome(env), name)
}

/** `text` without its trailing line feeds (a loop: `/\n*$/` rescans every run of line feeds from each of them). */
function withoutTrailingNewlines(text: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === '\n') end--
  return text.slice(0, end)
}

/** `text` without the marked block (and the blank line before it). */
function withoutBlock(text: string): string {
  const start = text.indexOf(SHELL_BLOCK_START)
  const end = text.indexOf(SHELL_BLOCK_END)
  if (start === -1 || end === -1 || end < start) return text
  return (
    withoutTrailingNewlines(text.slice(0, start)) + text.slice(end + SHELL_BLOCK_END.length).replace(/^\n/, '\n')
  ).replace(/^\n+/, '')
}

/**
 * Writes `block` into the profile (replacing an earlier one) or, with `remove`, takes it out.
 * Returns what changed, in one line, or that nothing did.
 */
export async function editProfile(path: string, block: string | undefined): Promise<string> {
  const text = await readText(path)
  const kept = withoutBlock(text)
  const next = block === undefined ? kept : `${kept === '' ? '' : `${withoutTrailingNewlines(kept)}\n\n`}${block}\n`
  if (next === text) return `${path}: unchanged`
  await writeText(path, next)
  return `${path}: ${block === undefined ? 'askpass block removed' : 'askpass block written'}`
}
