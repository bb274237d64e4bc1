// The app's executable as the `ask-user` command (started by the packaged launcher with ASK_USER_CLI=1).
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { commandLineArguments, isCommandLineMode, runCommandLine } from '../../../electron/main/command-line-mode'
import type { CliBundle } from '../../../electron/main/command-line-mode'

describe('command-line mode', () => {
  it('is on only for ASK_USER_CLI=1', () => {
    expect(isCommandLineMode({ ASK_USER_CLI: '1' })).toBe(true)
    expect(isCommandLineMode({})).toBe(false)
    expect(isCommandLineMode({ ASK_USER_CLI: 'yes' })).toBe(false)
  })

  it('takes the arguments after the executable when packaged, after the app folder in development', () => {
    expect(commandLineArguments(['/opt/app/ask-user-companion', 'ask', '--question', 'Go?'], true)).toEqual([
      'ask',
      '--question',
      'Go?',
    ])
    expect(commandLineArguments(['/x/electron', '/src/app', 'status'], false)).toEqual(['status'])
  })

  it('runs the CLI bundle beside the main bundle, hides the dock icon, and exits with its code after flushing', async () => {
    const env: NodeJS.ProcessEnv = { ASK_USER_CLI: '1', HOME: '/home/u' }
    const calls: string[] = []
    const exited = new Promise<number>((resolve) => {
      const app = {
        isPackaged: true,
        exit: (code?: number) => resolve(code ?? 0),
        dock: { hide: () => void calls.push('dock.hide') },
      }
      const bundle: CliBundle = {
        runFromProcess: ({ argv, exit }) => {
          calls.push(`run ${argv.join(' ')}`)
          exit(3)
        },
      }
      const out = new PassThrough()
      out.resume()
      runCommandLine({
        app,
        argv: ['/opt/app/ask-user-companion', 'ask', '--question', 'Go?'],
        env,
        mainDir: '/opt/app/resources/app.asar/out/main',
        load: (path) => {
          calls.push(`load ${path}`)
          return bundle
        },
        streams: [out],
      })
    })
    expect(await exited).toBe(3)
    expect(calls).toEqual(['dock.hide', 'load /opt/app/resources/app.asar/out/main/cli.js', 'run ask --question Go?'])
    expect(env).toEqual({ HOME: '/home/u' }) // not passed on to what the command starts
  })
})
