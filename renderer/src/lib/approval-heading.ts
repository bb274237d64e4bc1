import type { ApprovalRequest } from '../../../shared/approval'
import type { MessageKey } from '../i18n/messages'

/**
 * The words that head an approval card: what the agent wants to do, in the person's terms ("Claude Code
 * wants to run a command"), never "Question from …". `tool` names the harness's tool where the action
 * is not one we describe.
 */
export function approvalHeading(request: ApprovalRequest): { key: MessageKey; tool?: string } {
  const action = request.action
  switch (action.kind) {
    case 'command':
      return { key: 'approvalHeadingCommand' }
    case 'file':
      return { key: FILE_HEADING[action.operation ?? 'edit'] }
    case 'url':
      return { key: 'approvalHeadingUrl' }
    case 'plan':
      return { key: 'approvalHeadingPlan' }
    default:
      return { key: 'approvalHeadingTool', tool: request.tool }
  }
}

const FILE_HEADING = {
  edit: 'approvalHeadingFileEdit',
  write: 'approvalHeadingFileWrite',
  delete: 'approvalHeadingFileDelete',
  read: 'approvalHeadingFileRead',
} as const satisfies Record<string, MessageKey>
