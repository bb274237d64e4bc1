// The cases of the error-wording sweep (error-words.test.ts): every frame type and field a client can
// get wrong, on both channels, with the exact reply it must get.

/** One agent-channel case: the frame sent (after hello, unless `beforeHello`) and the error expected. */
export interface AgentCase {
  name: string
  frame: Record<string, unknown>
  beforeHello?: boolean
  error: { id?: string; code: string; message: string }
}

/** One UI-channel case: the frame a window sends and the `rejected` reply expected. */
export interface UiCase {
  name: string
  frame: Record<string, unknown>
  rejected: { askId: string; code: string; reason: string }
}

const bash = { tool: 'Bash', action: { kind: 'command', command: 'npm test' } }
const q = [{ id: 'q1', question: 'Which database?', options: [{ label: 'SQLite' }] }]
const hello = (client: unknown, protocol: unknown = 1): Record<string, unknown> => ({ type: 'hello', protocol, client })
const ask = (extra: Record<string, unknown>): Record<string, unknown> => ({
  type: 'ask',
  id: 'a1',
  questions: q,
  ...extra,
})
const frameError = (message: string, id?: string): AgentCase['error'] => ({
  ...(id === undefined ? {} : { id }),
  code: 'INVALID_FRAME',
  message,
})
const argsError = (message: string): AgentCase['error'] => ({
  id: 'a1',
  code: 'INVALID_ARGS',
  message: `invalid arguments: ${message}`,
})

/** Agent endpoint: hello, ask (envelope and tool arguments) and cancel, field by field. */
export const AGENT_CASES: AgentCase[] = [
  {
    name: 'hello without protocol',
    beforeHello: true,
    frame: { type: 'hello', client: { name: 'x' } },
    error: frameError('invalid hello: missing required property "protocol"'),
  },
  {
    name: 'hello with a string protocol',
    beforeHello: true,
    frame: hello({ name: 'x' }, '1'),
    error: frameError('invalid hello: "protocol" must be a number'),
  },
  {
    name: 'hello with a fractional protocol',
    beforeHello: true,
    frame: hello({ name: 'x' }, 1.5),
    error: frameError('invalid hello: "protocol" must be an integer'),
  },
  {
    name: 'hello without client',
    beforeHello: true,
    frame: { type: 'hello', protocol: 1 },
    error: frameError('invalid hello: missing required property "client"'),
  },
  {
    name: 'hello with a string client',
    beforeHello: true,
    frame: hello('x'),
    error: frameError('invalid hello: "client" must be an object'),
  },
  {
    name: 'hello without client.name',
    beforeHello: true,
    frame: hello({}),
    error: frameError('invalid hello: missing required property "client.name"'),
  },
  {
    name: 'hello with an empty client.name',
    beforeHello: true,
    frame: hello({ name: '' }),
    error: frameError('invalid hello: "client.name" must not be empty'),
  },
  {
    name: 'hello with a numeric client.name',
    beforeHello: true,
    frame: hello({ name: 5 }),
    error: frameError('invalid hello: "client.name" must be a string'),
  },
  {
    name: 'hello with a numeric client.version',
    beforeHello: true,
    frame: hello({ name: 'x', version: 1 }),
    error: frameError('invalid hello: "client.version" must be a string'),
  },
  {
    name: 'hello with a negative client.pid',
    beforeHello: true,
    frame: hello({ name: 'x', pid: -1 }),
    error: frameError('invalid hello: "client.pid" must be at least 0'),
  },
  {
    name: 'hello with a fractional client.pid',
    beforeHello: true,
    frame: hello({ name: 'x', pid: 1.5 }),
    error: frameError('invalid hello: "client.pid" must be an integer'),
  },
  {
    name: 'hello with a string client.pid',
    beforeHello: true,
    frame: hello({ name: 'x', pid: '7' }),
    error: frameError('invalid hello: "client.pid" must be a number'),
  },
  {
    name: 'hello with a numeric client.cwd',
    beforeHello: true,
    frame: hello({ name: 'x', cwd: 1 }),
    error: frameError('invalid hello: "client.cwd" must be a string'),
  },
  {
    name: 'hello with a numeric client.title',
    beforeHello: true,
    frame: hello({ name: 'x', title: 1 }),
    error: frameError('invalid hello: "client.title" must be a string'),
  },
  {
    name: 'ask without id',
    frame: { type: 'ask', questions: q },
    error: frameError('invalid ask: missing required property "id"'),
  },
  { name: 'ask with a numeric id', frame: ask({ id: 5 }), error: frameError('invalid ask: "id" must be a string') },
  { name: 'ask with an empty id', frame: ask({ id: '' }), error: frameError('invalid ask: "id" must not be empty') },
  {
    name: 'ask with a 201-character id',
    frame: ask({ id: 'x'.repeat(201) }),
    error: frameError('invalid ask: "id" must be at most 200 characters'),
  },
  {
    name: 'ask with a numeric title',
    frame: ask({ title: 5 }),
    error: frameError('invalid ask: "title" must be a string', 'a1'),
  },
  {
    name: 'ask without questions',
    frame: { type: 'ask', id: 'a1' },
    error: argsError('missing required property "questions"'),
  },
  {
    name: 'ask with null questions',
    frame: ask({ questions: null }),
    error: argsError('"questions" must be an array'),
  },
  {
    name: 'ask with string questions',
    frame: ask({ questions: 'x' }),
    error: argsError('"questions" must be an array'),
  },
  {
    name: 'ask with a non-object question',
    frame: ask({ questions: [5] }),
    error: argsError('"questions[0]" must be an object'),
  },
  {
    name: 'ask with a question without id',
    frame: ask({ questions: [{ question: 'Why?' }] }),
    error: argsError('missing required property "questions[0].id"'),
  },
  {
    name: 'ask with a question without text',
    frame: ask({ questions: [{ id: 'q1' }] }),
    error: argsError('missing required property "questions[0].question"'),
  },
  {
    name: 'ask with a numeric header',
    frame: ask({ questions: [{ id: 'q1', question: 'Why?', header: 1 }] }),
    error: argsError('"questions[0].header" must be a string'),
  },
  {
    name: 'ask with string options',
    frame: ask({ questions: [{ id: 'q1', question: 'Why?', options: 'a' }] }),
    error: argsError('"questions[0].options" must be an array'),
  },
  {
    name: 'ask with an option without label',
    frame: ask({ questions: [{ id: 'q1', question: 'Why?', options: [{}] }] }),
    error: argsError('missing required property "questions[0].options[0].label"'),
  },
  {
    name: 'ask with a numeric option description',
    frame: ask({ questions: [{ id: 'q1', question: 'Why?', options: [{ label: 'a', description: 1 }] }] }),
    error: argsError('"questions[0].options[0].description" must be a string'),
  },
  {
    name: 'ask with a string multi_select',
    frame: ask({ questions: [{ id: 'q1', question: 'Why?', multi_select: 'yes' }] }),
    error: argsError('"questions[0].multi_select" must be a boolean'),
  },
  {
    name: 'ask with no questions at all',
    frame: ask({ questions: [] }),
    error: {
      id: 'a1',
      code: 'EMPTY_QUESTIONS',
      message: 'ask_user_question needs at least one question; "questions" was empty',
    },
  },
  {
    name: 'cancel without id',
    frame: { type: 'cancel' },
    error: frameError('invalid cancel: missing required property "id"'),
  },
  {
    name: 'cancel with a numeric id',
    frame: { type: 'cancel', id: 5 },
    error: frameError('invalid cancel: "id" must be a string'),
  },
  {
    name: 'cancel with an empty id',
    frame: { type: 'cancel', id: '' },
    error: frameError('invalid cancel: "id" must not be empty'),
  },
  {
    name: 'approve without id',
    frame: { type: 'approve', approval: bash },
    error: frameError('invalid approve: missing required property "id"'),
  },
  {
    name: 'approve with a numeric title',
    frame: { type: 'approve', id: 'a1', title: 1, approval: bash },
    error: frameError('invalid approve: "title" must be a string', 'a1'),
  },
  {
    name: 'approve without approval',
    frame: { type: 'approve', id: 'a1' },
    error: argsError('missing required property "approval"'),
  },
  {
    name: 'approve without approval.tool',
    frame: { type: 'approve', id: 'a1', approval: { action: bash.action } },
    error: argsError('missing required property "approval.tool"'),
  },
  {
    name: 'approve with an unknown action kind',
    frame: { type: 'approve', id: 'a1', approval: { tool: 'Bash', action: { kind: 'exec' } } },
    error: argsError('"approval.action.kind" must be "command" or "file" or "url" or "plan" or "tool"'),
  },
  {
    name: 'approve with a numeric command',
    frame: { type: 'approve', id: 'a1', approval: { tool: 'Bash', action: { kind: 'command', command: 1 } } },
    error: argsError('"approval.action.command" must be a string'),
  },
  {
    name: 'approve with an unknown file operation',
    frame: {
      type: 'approve',
      id: 'a1',
      approval: { tool: 'Edit', action: { kind: 'file', path: 'a', operation: 'move' } },
    },
    error: argsError('"approval.action.operation" must be "edit" or "write" or "delete" or "read"'),
  },
  {
    name: 'approve with an empty always.label',
    frame: { type: 'approve', id: 'a1', approval: { ...bash, always: { label: '' } } },
    error: argsError('"approval.always.label" must not be empty'),
  },
  {
    name: 'notice without notice',
    frame: { type: 'notice' },
    error: { code: 'INVALID_ARGS', message: 'invalid arguments: missing required property "notice"' },
  },
  {
    name: 'notice with an unknown kind',
    frame: { type: 'notice', id: 'n1', notice: { kind: 'shout', text: 'x' } },
    error: {
      id: 'n1',
      code: 'INVALID_ARGS',
      message: 'invalid arguments: "notice.kind" must be "needs-input" or "turn-complete" or "info"',
    },
  },
  {
    name: 'notice with an empty text',
    frame: { type: 'notice', notice: { kind: 'info', text: '' } },
    error: { code: 'INVALID_ARGS', message: 'invalid arguments: "notice.text" must not be empty' },
  },
  { name: 'a frame without type', frame: { id: 'a1' }, error: frameError('a frame needs a string "type"') },
  { name: 'a frame with a numeric type', frame: { type: 1 }, error: frameError('a frame needs a string "type"') },
  {
    name: 'a frame of an unknown type',
    frame: { type: 'answer', id: 'a1' },
    error: frameError('unknown frame type "answer"', 'a1'),
  },
]

const reject = (reason: string, askId = ''): UiCase['rejected'] => ({ askId, code: 'INVALID_FRAME', reason })

/** UI channel: answer, dismiss and history/get, field by field. */
export const UI_CASES: UiCase[] = [
  {
    name: 'answer without askId',
    frame: { type: 'ask/answer', answers: [] },
    rejected: reject('invalid ask/answer frame: missing required property "askId"'),
  },
  {
    name: 'answer with a numeric askId',
    frame: { type: 'ask/answer', askId: 5, answers: [] },
    rejected: reject('invalid ask/answer frame: "askId" must be a string'),
  },
  {
    name: 'answer without answers',
    frame: { type: 'ask/answer', askId: 'k' },
    rejected: reject('invalid ask/answer frame: missing required property "answers"', 'k'),
  },
  {
    name: 'answer with string answers',
    frame: { type: 'ask/answer', askId: 'k', answers: 'x' },
    rejected: reject('invalid ask/answer frame: "answers" must be an array', 'k'),
  },
  {
    name: 'answer with a non-object answer',
    frame: { type: 'ask/answer', askId: 'k', answers: [1] },
    rejected: reject('invalid ask/answer frame: "answers[0]" must be an object', 'k'),
  },
  {
    name: 'answer without answers[0].id',
    frame: { type: 'ask/answer', askId: 'k', answers: [{ selected: [] }] },
    rejected: reject('invalid ask/answer frame: missing required property "answers[0].id"', 'k'),
  },
  {
    name: 'answer without answers[0].selected',
    frame: { type: 'ask/answer', askId: 'k', answers: [{ id: 'q1' }] },
    rejected: reject('invalid ask/answer frame: missing required property "answers[0].selected"', 'k'),
  },
  {
    name: 'answer with a string selected',
    frame: { type: 'ask/answer', askId: 'k', answers: [{ id: 'q1', selected: 'a' }] },
    rejected: reject('invalid ask/answer frame: "answers[0].selected" must be an array', 'k'),
  },
  {
    name: 'answer with a numeric label',
    frame: { type: 'ask/answer', askId: 'k', answers: [{ id: 'q1', selected: [1] }] },
    rejected: reject('invalid ask/answer frame: "answers[0].selected[0]" must be a string', 'k'),
  },
  {
    name: 'answer with a numeric custom',
    frame: { type: 'ask/answer', askId: 'k', answers: [{ id: 'q1', selected: [], custom: 1 }] },
    rejected: reject('invalid ask/answer frame: "answers[0].custom" must be a string', 'k'),
  },
  {
    name: 'decide without decision',
    frame: { type: 'ask/decide', askId: 'k' },
    rejected: reject('invalid ask/decide frame: missing required property "decision"', 'k'),
  },
  {
    name: 'decide with an unknown behavior',
    frame: { type: 'ask/decide', askId: 'k', decision: { behavior: 'ask' } },
    rejected: reject('invalid ask/decide frame: "decision.behavior" must be "allow" or "deny"', 'k'),
  },
  {
    name: 'decide with always false',
    frame: { type: 'ask/decide', askId: 'k', decision: { behavior: 'allow', always: false } },
    rejected: reject('invalid ask/decide frame: "decision.always" must be true', 'k'),
  },
  {
    name: 'decide with a numeric deny message',
    frame: { type: 'ask/decide', askId: 'k', decision: { behavior: 'deny', message: 1 } },
    rejected: reject('invalid ask/decide frame: "decision.message" must be a string', 'k'),
  },
  {
    name: 'notice/dismiss without noticeId',
    frame: { type: 'notice/dismiss' },
    rejected: reject('invalid notice/dismiss frame: missing required property "noticeId"'),
  },
  {
    name: 'dismiss without askId',
    frame: { type: 'ask/dismiss' },
    rejected: reject('invalid ask/dismiss frame: missing required property "askId"'),
  },
  {
    name: 'dismiss with a numeric askId',
    frame: { type: 'ask/dismiss', askId: 5 },
    rejected: reject('invalid ask/dismiss frame: "askId" must be a string'),
  },
  {
    name: 'history/get with limit 0',
    frame: { type: 'history/get', limit: 0 },
    rejected: reject('invalid history/get frame: "limit" must be at least 1'),
  },
  {
    name: 'history/get with limit 1001',
    frame: { type: 'history/get', limit: 1001 },
    rejected: reject('invalid history/get frame: "limit" must be at most 1000'),
  },
  {
    name: 'history/get with a fractional limit',
    frame: { type: 'history/get', limit: 1.5 },
    rejected: reject('invalid history/get frame: "limit" must be an integer'),
  },
  {
    name: 'history/get with a string limit',
    frame: { type: 'history/get', limit: '5' },
    rejected: reject('invalid history/get frame: "limit" must be a number'),
  },
  { name: 'a frame without type', frame: { askId: 'k' }, rejected: reject('a frame needs a string "type"') },
  {
    name: 'a frame of an unknown type',
    frame: { type: 'cancel', askId: 'k' },
    rejected: reject('unknown frame type "cancel"', 'k'),
  },
]
