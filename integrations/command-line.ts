import type { ConnectInfo } from '../shared/connect'

/** Leaves plain words bare; quotes the rest for the person's shell (POSIX single quotes; double quotes on Windows). */
export function quote(value: string, platform: ConnectInfo['platform']): string {
  if (platform === 'win32') return /^[\w./:=@+,\\-]+$/.test(value) ? value : `"${value.replace(/"/g, '\\"')}"`
  if (/^[\w./:=@%+,-]+$/.test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/** This install's `ask-user` followed by `words`, each quoted for the person's shell. */
export function askUserLine(info: ConnectInfo, words: readonly string[]): string {
  return [info.commandLine.command, ...info.commandLine.args, ...words]
    .map((word) => quote(word, info.platform))
    .join(' ')
}

/**
 * `command` (already quoted) with the companion's environment in front: POSIX `K=V cmd`, and on
 * Windows `set "K=V" && cmd`, since cmd.exe has no per-command assignment.
 */
export function withCompanionEnv(command: string, info: ConnectInfo): string {
  const env = Object.entries(info.env)
  return info.platform === 'win32'
    ? [...env.map(([key, value]) => `set "${key}=${value}"`), command].join(' && ')
    : [...env.map(([key, value]) => quote(`${key}=${value}`, info.platform)), command].join(' ')
}
