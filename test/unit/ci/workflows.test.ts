// The GitHub Actions workflows cannot run here; what can be checked is: they are valid workflow files
// (the action-validator schema check, which is shown to bite), and they say what the project promises.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { packageBin } from '../../../scripts/package-bin.mjs'

const ROOT = join(__dirname, '..', '..', '..')
const WORKFLOWS = join(ROOT, '.github', 'workflows')

interface Step {
  name?: string
  run?: string
  uses?: string
  if?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
interface Job {
  'runs-on': string
  strategy?: { matrix: { os?: string[]; node?: string[]; include?: Array<{ os: string; targets: string }> } }
  steps: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  jobs: Record<string, Job>
}

const read = (name: string): Workflow => load(readFileSync(join(WORKFLOWS, name), 'utf8')) as Workflow
const validate = (file: string) =>
  spawnSync(process.execPath, [packageBin(ROOT, '@action-validator/cli', 'action-validator'), file], {
    encoding: 'utf8',
  })

describe('workflow files', () => {
  it.each(['ci.yml', 'release.yml'])('%s passes the workflow schema', (name) => {
    const run = validate(join(WORKFLOWS, name))
    expect(run.stderr + run.stdout).toBe('')
    expect(run.status).toBe(0)
  })

  it('the schema check refuses a broken workflow (so the check above means something)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ask-user-workflow-'))
    try {
      writeFileSync(
        join(dir, 'broken.yml'),
        'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - nonsense: true\n',
      )
      expect(validate(join(dir, 'broken.yml')).status).not.toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('never puts a secret on a command line (secrets reach steps through env only)', () => {
    for (const name of ['ci.yml', 'release.yml']) {
      for (const job of Object.values(read(name).jobs)) {
        for (const step of job.steps) expect(step.run ?? '', `${name}: ${step.name}`).not.toMatch(/\$\{\{\s*secrets\./)
      }
    }
  })
})

describe('ci.yml', () => {
  const ci = read('ci.yml')
  const job = ci.jobs['test']!
  const runs = job.steps.map((step) => `${step.if ?? ''} ${step.run ?? ''}`)

  it('runs on push and pull request, on Linux, macOS and Windows, with both Node lines of engines', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push'])
    expect(job.strategy!.matrix.os).toEqual(['ubuntu-24.04', 'macos-14', 'windows-2022'])
    const engines: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node
    expect(engines).toBe('^20.19.0 || >=22.12.0')
    expect(job.strategy!.matrix.node).toEqual(['20.19', '22'])
  })

  it('runs the README test command with the Electron spec: under xvfb on Linux, as is on macOS, the Electron spec on Windows', () => {
    expect(runs).toContain("runner.os == 'Linux' xvfb-run -a npm test")
    expect(runs).toContain("runner.os == 'macOS' npm test")
    expect(runs.find((r) => r.startsWith("runner.os == 'Windows'"))).toContain(
      'npx playwright test test/e2e/electron.spec.ts',
    )
    expect(runs.join('\n')).toContain('sysctl -w kernel.apparmor_restrict_unprivileged_userns=0')
    expect(runs.join('\n')).not.toContain('--no-sandbox')
  })

  it('installs Electron the way npm start does, and caches npm and Electron', () => {
    expect(runs.join('\n')).toContain("require('./scripts/electron/install.cjs').ensureElectron")
    expect(job.steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['cache']).toBe('npm')
    expect(job.steps.find((s) => s.uses?.startsWith('actions/cache'))?.with?.['path']).toBe('.cache/electron')
  })
})

describe('release.yml', () => {
  const release = read('release.yml')
  const builder = load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, { target: string[] }>

  it('builds on a v* tag exactly the targets electron-builder.yml declares, per OS', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } })
    const include = release.jobs['build']!.strategy!.matrix.include!
    const targets = (os: string): string[] =>
      include
        .find((i) => i.os === os)!
        .targets.split(' ')
        .filter((word) => !word.startsWith('--'))
    expect(targets('ubuntu-24.04')).toEqual(builder['linux']!.target)
    expect(targets('macos-14')).toEqual(builder['mac']!.target)
    expect(targets('windows-2022')).toEqual(builder['win']!.target)
    expect(include.find((i) => i.os === 'macos-14')!.targets).toContain('--x64 --arm64')
  })

  it('uploads what the updater reads (latest*.yml, .blockmap) and drafts the release with checksums after the smoke job', () => {
    const upload = release.jobs['build']!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!
    expect(String(upload.with!['path'])).toContain('release/latest*.yml')
    expect(String(upload.with!['path'])).toContain('release/*.blockmap')
    const publish = release.jobs['publish']! as Job & { needs: string[] }
    expect(publish.needs).toEqual(['build', 'smoke'])
    const runs = publish.steps.map((s) => s.run ?? '').join('\n')
    expect(runs).toContain('sha256sum * > SHA256SUMS.txt')
    expect(runs).toContain('gh release create "$GITHUB_REF_NAME" release/* --draft')
  })

  it('smoke-tests ask-user from each installed app', () => {
    const runs = release.jobs['smoke']!.steps.map((s) => s.run ?? '').join('\n')
    expect(runs).toContain('ask="/opt/Ask User Companion/resources/bin/ask-user"')
    expect(runs).toContain('ask="/Applications/Ask User Companion.app/Contents/Resources/bin/ask-user"')
    expect(runs.match(/"\$ask" --version/g)).toHaveLength(2)
    expect(runs).toContain('\\resources\\bin\\ask-user.cmd" --version')
    // and the installed app itself starts a companion that the installed ask-user reaches
    expect(runs.match(/status && break/g)).toHaveLength(2)
    expect(runs).toContain('ask-user.cmd" status; if ($LASTEXITCODE -eq 0) { break }')
  })

  it('deploys Pages and drafts the release only after every installer built and passed its smoke test', () => {
    for (const name of ['pages', 'publish']) {
      expect((release.jobs[name] as Job & { needs?: string[] }).needs, name).toEqual(['build', 'smoke'])
    }
  })

  it('builds the phone app and deploys out/phone to Pages, with Pages rights on that job only', () => {
    const pages = release.jobs['pages']! as Job & { permissions: Record<string, string> }
    const runs = pages.steps.map((s) => s.run ?? '').join('\n')
    expect(runs).toContain('npx vite build -c vite.phone.config.mts')
    const uses = pages.steps.map((s) => s.uses ?? '').filter((u) => u.startsWith('actions/') && /pages/.test(u))
    expect(uses.map((u) => u.split('@')[0])).toEqual([
      'actions/configure-pages',
      'actions/upload-pages-artifact',
      'actions/deploy-pages',
    ])
    const upload = pages.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact'))!
    expect(upload.with).toEqual({ path: 'out/phone' })
    expect(pages.permissions).toEqual({ contents: 'read', pages: 'write', 'id-token': 'write' })
    const workflow = load(readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8')) as { permissions: object }
    expect(workflow.permissions).toEqual({ contents: 'read' })
    for (const [name, job] of Object.entries(release.jobs) as Array<[string, { permissions?: object }]>) {
      if (name !== 'pages') expect(JSON.stringify(job.permissions ?? {})).not.toMatch(/pages|id-token/)
    }
  })
})

describe('actions in every workflow', () => {
  const PINNED = /^\s*(?:- )?uses: ([\w.-]+\/[\w.-]+)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)$/
  const usesLinesOf = (name: string): string[] =>
    readFileSync(join(WORKFLOWS, name), 'utf8')
      .split('\n')
      .filter((line) => /^\s*(?:- )?uses:/.test(line))

  it.each(['ci.yml', 'release.yml'])(
    '%s pins every action by full commit SHA, with its release tag in a comment',
    (name) => {
      const usesLines = usesLinesOf(name)
      expect(usesLines.length).toBeGreaterThan(0)
      for (const line of usesLines) expect(line).toMatch(PINNED)
      // Every step's `uses` is one of those lines (none written as a flow mapping the line check would miss).
      const steps = Object.values(read(name).jobs).flatMap((job) => job.steps.filter((step) => step.uses !== undefined))
      expect(steps).toHaveLength(usesLines.length)
      for (const step of steps) expect(step.uses).toMatch(/@[0-9a-f]{40}$/)
    },
  )

  it('pins one action to one commit and one tag across both workflows', () => {
    const byAction = new Map<string, Set<string>>()
    for (const line of [...usesLinesOf('ci.yml'), ...usesLinesOf('release.yml')]) {
      const [, action, sha, tag] = PINNED.exec(line)!
      byAction.set(action!, (byAction.get(action!) ?? new Set()).add(`${sha} ${tag}`))
    }
    for (const [action, pins] of byAction) expect([...pins], action).toHaveLength(1)
  })
})
