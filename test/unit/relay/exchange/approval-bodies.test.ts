// The sealed bodies of relay/exchange/schemas.ts with approvals added: a question body of before still
// parses as it did; an approval body is read only by a desk that knows approvals (one built before reads
// it with the strict questions body and refuses it, rather than showing half of it); a body carrying
// both, or neither, is no remote ask; a decision answer is told apart from answers.
import { describe, expect, it } from 'vitest'
import {
  QuestionsBodySchema,
  RemoteAnswerBodySchema,
  RemoteQuestionBodySchema,
} from '../../../../relay/exchange/schemas'

const QUESTIONS = [{ id: 'go', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }]
const APPROVAL = { tool: 'Bash', action: { kind: 'command', command: 'npm test' } }

describe('question and answer bodies with approvals', () => {
  it('a question body of before parses unchanged', () => {
    const body = { v: 1, questions: QUESTIONS, title: 'Deploy', expiresAt: 5, maxCustomChars: 100 }
    expect(RemoteQuestionBodySchema.parse(body)).toEqual(body)
  })

  it('an approval body parses with its request, and a strict questions body (an older desk) refuses it', () => {
    const body = { v: 1, approval: APPROVAL, mirroredFor: 'claude', maxCustomChars: 100 }
    expect(RemoteQuestionBodySchema.parse(body)).toEqual(body)
    expect(QuestionsBodySchema.safeParse(body).success).toBe(false)
  })

  it('a body with both questions and an approval, or with neither, is refused', () => {
    expect(RemoteQuestionBodySchema.safeParse({ v: 1, questions: QUESTIONS, approval: APPROVAL }).success).toBe(false)
    expect(RemoteQuestionBodySchema.safeParse({ v: 1, title: 'nothing asked' }).success).toBe(false)
  })

  it('an answer body carries answers or a decision, never both', () => {
    expect(RemoteAnswerBodySchema.parse({ v: 1, answers: [{ id: 'go', selected: ['Yes'] }] })).toHaveProperty('answers')
    expect(RemoteAnswerBodySchema.parse({ v: 1, decision: { behavior: 'deny', message: 'no' } })).toEqual({
      v: 1,
      decision: { behavior: 'deny', message: 'no' },
    })
    const both = { v: 1, answers: [], decision: { behavior: 'allow' } }
    expect(RemoteAnswerBodySchema.safeParse(both).success).toBe(false)
  })
})
