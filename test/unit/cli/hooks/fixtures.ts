// Test helper: the hook fixtures of test/fixtures/hooks/<harness>/*.json, written from each harness's
// published types (Claude Code's sdk-tools.d.ts and bundled schemas, codex-rs's hook schemas, Gemini
// CLI's hook types, opencode's PermissionRequest/QuestionRequest).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Answer } from '../../../../shared/answer'
import type { ApprovalDecision } from '../../../../shared/approval'
import { HOOK_HARNESS_IDS, type HookHarnessId } from '../../../../integrations/ids'

/** One fixture: the event (stdin, or Codex notify's argument), the person's part, and the exact stdout. */
export interface HookFixture {
  harness: HookHarnessId
  name: string
  event?: unknown
  argument?: unknown
  /** The approval request the companion must get. */
  expect?: unknown
  decision?: ApprovalDecision
  /** The person dismissed the approval card ("let the terminal decide"). */
  dismissed?: true
  questions?: unknown
  answers?: Answer[]
  notice?: unknown
  stdout: string
}

const ROOT = join(__dirname, '..', '..', '..', 'fixtures', 'hooks')

export function hookFixtures(): HookFixture[] {
  return HOOK_HARNESS_IDS.flatMap((harness) =>
    readdirSync(join(ROOT, harness))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({
        harness,
        name: file.replace(/\.json$/, ''),
        ...(JSON.parse(readFileSync(join(ROOT, harness, file), 'utf8')) as Omit<HookFixture, 'harness' | 'name'>),
      })),
  )
}
