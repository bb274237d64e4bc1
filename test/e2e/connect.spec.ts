// "Connect an agent" in Chromium, against the real `ask-user serve`: the panel's lines name this
// install's ask-user and the companion's home, the copy button copies them, and the copied line for
// scripts, run from a project folder elsewhere, really reaches the person and returns the answer.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { ensureRendererBuilt, ROOT } from './support/build'
import { waitArmed } from './support/fixtures'

const BIN = join(ROOT, 'bin', 'ask-user.js')

let serve: ChildProcess
let home: string
let pageUrl: string

// Skipped only on Windows: the copied script line is POSIX shell, run with sh (cmd.exe gets its own line).
test.skip(process.platform === 'win32', 'runs the copied line with sh')

test.beforeAll(async () => {
  ensureRendererBuilt()
  home = mkdtempSync(join(tmpdir(), 'ask-user-e2e-connect-'))
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, ASK_USER_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  pageUrl = await new Promise<string>((resolve, reject) => {
    let out = ''
    serve.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('http://'))
      if (line) resolve(line.trim())
    })
    serve.once('exit', (code) => reject(new Error(`ask-user serve exited with ${code}`)))
  })
})

test.afterAll(async () => {
  if (serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve))
    serve.kill('SIGTERM')
    await exited
  }
  rmSync(home, { recursive: true, force: true })
})

test('the panel gives this machine’s lines, copies them, and the copied script line works from another folder', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(pageUrl).origin })
  await page.goto(pageUrl)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  await page.getByRole('button', { name: 'Connect an agent' }).click()

  const claude = page.locator('[data-harness="claude-code"]')
  await expect(claude.getByTestId('connect-block').first()).toHaveText(`ASK_USER_HOME=${home} ${BIN} setup claude-code`)
  await claude.getByRole('button', { name: 'Copy Claude Code' }).first().click()
  await expect(claude.getByTestId('copy').first()).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `ASK_USER_HOME=${home} ${BIN} setup claude-code`,
  )

  const passwords = page.locator('[data-harness="askpass"]')
  await expect(passwords.getByTestId('connect-block')).toHaveText(
    ['claude-code', 'codex', 'shell'].map((target) => `ASK_USER_HOME=${home} ${BIN} setup ${target} --askpass`),
  )

  const script = page.locator('[data-harness="shell"]')
  await script.getByRole('button', { name: 'Copy Scripts and other tools' }).click()
  const line = await page.evaluate(() => navigator.clipboard.readText())
  expect(line).toBe(`ASK_USER_HOME=${home} ${BIN} ask --question "Deploy now?" --option Yes --option No`)

  // Paste it into a shell in some other project, with a HOME of its own: it must reach this companion.
  const project = mkdtempSync(join(tmpdir(), 'ask-user-e2e-project-'))
  try {
    const agent = spawn('sh', ['-c', line], {
      cwd: project,
      env: { PATH: process.env['PATH'] ?? '', HOME: project },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    agent.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const exited = new Promise<number | null>((resolve) => agent.once('exit', resolve))

    await page.getByRole('button', { name: 'Inbox' }).click()
    await expect(page.getByTestId('question').getByText('Deploy now?')).toBeVisible()
    await waitArmed(page)
    await page.getByTestId('option').filter({ hasText: 'Yes' }).click()
    await page.getByRole('button', { name: 'Send answer' }).click()

    expect(await exited).toBe(0)
    expect(stdout).toBe('{"answers":[{"id":"q1","selected":["Yes"]}]}\n')
  } finally {
    rmSync(project, { recursive: true, force: true })
  }
})
