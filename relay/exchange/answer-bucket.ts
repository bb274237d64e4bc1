// Where the answer to one remote ask is written (RELAY.md §4.2, the promise "secrets stay off the relay"):
// an ask with a secret question (a password) is answered in the `secret` bucket, whose entries expire
// after 10 minutes, never in `inbox`, which keeps its entries for 7 days. Both ends decide by the same
// rule from the same questions, so the agent watches exactly where the desk writes.
import { isSecretQuestion } from '../../shared/question-extras'
import type { Question } from '../../shared/tool-input'
import { BUCKETS } from '../nats/templates'
import { INBOX_BUCKET } from './inbox-keys'

/** The bucket holding the answer of an ask with these questions: `secret` when any is secret, else `inbox`. */
export function answerBucketFor(questions: readonly Question[]): string {
  // The tool's question keeps unknown fields (`secret` among them) as an index signature.
  return questions.some((question) => isSecretQuestion({ secret: question['secret'] })) ? BUCKETS.secret : INBOX_BUCKET
}
