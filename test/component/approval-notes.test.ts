// Classes 6 and 7 on the card: every input field a hook could not render shows, the warnings show in
// the person's language, and a URL leads with its real host (punycode) with a user-name warning.
import { cleanup, render, screen, within } from '@testing-library/svelte'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import ApprovalBody from '../../renderer/src/components/ApprovalBody.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { en } from '../../renderer/src/i18n/messages'
import { zh } from '../../renderer/src/i18n/messages-zh'
import { markAskedByModel } from '../../integrations/claude-code/hook-tool'
import { tick } from 'svelte'
import type { ApprovalRequest } from '../../shared/approval'
import { claude, requestOf, TOOL_CASES, withKey } from '../unit/cli/hooks/tool-cases'
import { makeApproval } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => {
  sessionStorage.clear()
  i18n.lang = 'en'
})
afterEach(cleanup)

function renderBody(request: ApprovalRequest) {
  return render(ApprovalBody, { props: { action: request.action, extra: request.extra, warnings: request.warnings } })
}

describe('any extra key of tool_input shows on the card (property, per harness and tool)', () => {
  for (const c of TOOL_CASES) {
    it(`${c.harness} ${c.tool}`, () => {
      // Visible keys, so that the text on screen is the key itself (hidden characters are shown as markers).
      const key = fc.stringMatching(/^[A-Za-z_$][\w$.-]{0,24}$/).filter((k) => !c.shown.includes(k))
      fc.assert(
        fc.property(key, fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 20 })), (k, value) => {
          const view = renderBody(requestOf(c.run(withKey(c.input, k, value))))
          try {
            expect(within(view.container).getByTestId('approval-extra').textContent).toContain(JSON.stringify(k))
          } finally {
            view.unmount()
          }
        }),
        { numRuns: 15 },
      )
    })
  }
})

describe('the approval card in the inbox', () => {
  it('"asked by the model" (the Claude Code hook tool called by the model) shows in the window’s own words', async () => {
    const work = markAskedByModel({
      agent: { name: 'Claude Code' },
      plan: {
        kind: 'approve',
        request: { tool: 'Bash', harness: 'claude-code', action: { kind: 'command', command: 'ls' } },
        output: () => undefined,
      },
    })
    if (work.plan.kind !== 'approve') throw new Error('expected an approval')
    await renderInbox([makeApproval(work.plan.request, { askId: 'model' })])
    const warning = within(screen.getByTestId('approval-card')).getByTestId('approval-warning')
    expect(warning.dataset.code).toBe('ASKED_BY_MODEL')
    expect(warning.textContent).toBe(en.warnAskedByModel)
    i18n.lang = 'zh'
    await tick()
    expect(warning.textContent).toBe(zh.warnAskedByModel)
  })

  it('shows the warnings above the command and the other fields below it', async () => {
    const approval = requestOf(
      claude('Bash')({
        command: 'make deploy',
        dangerouslyDisableSandbox: true,
        run_in_background: true,
        timeout: 600000,
      }),
    )
    await renderInbox([makeApproval(approval, { askId: 'bash' })])
    const card = screen.getByTestId('approval-card')
    const warnings = within(card).getAllByTestId('approval-warning')
    expect(warnings.map((w) => w.dataset.code)).toEqual(['OUTSIDE_SANDBOX', 'RUNS_IN_BACKGROUND'])
    expect(warnings[0]!.textContent).toBe(i18n.t('warnOutsideSandbox'))
    const extra = within(card).getByTestId('approval-extra')
    expect(extra.textContent).toContain('"timeout": 600000')
    expect(extra.textContent).toContain('"dangerouslyDisableSandbox": true')
    // warnings first, the command, then the extra fields
    const order = [within(card).getByTestId('approval-warnings'), within(card).getByTestId('approval-command'), extra]
    for (let i = 1; i < order.length; i++)
      expect(order[i - 1]!.compareDocumentPosition(order[i]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it("warnings in Chinese; a code this window does not know shows the hook's sentence", async () => {
    const approval: ApprovalRequest = {
      tool: 'Edit',
      action: { kind: 'file', path: '/a', operation: 'edit', diff: '-a\n+b' },
      warnings: [
        { code: 'REPLACES_EVERY_MATCH', message: 'Replaces every match.' },
        { code: 'SOME_FUTURE_FLAG', message: 'A flag from a newer hook.' },
      ],
    }
    await renderInbox([makeApproval(approval, { askId: 'edit' })])
    i18n.lang = 'zh'
    await Promise.resolve()
    const texts = () => screen.getAllByTestId('approval-warning').map((w) => w.textContent)
    await expect.poll(texts).toEqual(['替换文件中所有匹配之处，而不只是显示的这一处。', 'A flag from a newer hook.'])
  })
})
