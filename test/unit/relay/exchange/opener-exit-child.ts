// Run in a child process by question-opener-in-worker.test.ts: opens one question on a worker and
// never closes the opener. The process must still exit on its own (the worker is unref'd).
import { generateMemberIdentity, generateRootIdentity, loadMemberKeys, loadRootKeys } from '../../../../relay/crypto'
import { newReplyKey, randomToken, sealQuestion, signRoster, verifyRoster } from '../../../../relay/crypto'
import { WorkerQuestionOpener } from '../../../../relay/exchange/question-opener-in-worker'

export async function openOnceAndLeaveOpen(): Promise<void> {
  const rootIdentity = await generateRootIdentity()
  const root = await loadRootKeys(rootIdentity.secret)
  const agent = await loadMemberKeys((await generateMemberIdentity('ci', 'agent')).secret)
  const desk = await loadMemberKeys((await generateMemberIdentity('desk', 'desktop')).secret)
  const now = Date.now()
  const signed = await signRoster(root, { version: 1, members: [agent.member, desk.member], now })
  const roster = await verifyRoster(signed.bytes, signed.signature, root.publicKey, { highestSeenVersion: 0, now })
  const askId = randomToken()
  const kvKey = `q.${agent.member.id}.${askId}`
  const sealed = await sealQuestion({
    agent,
    roster,
    askId,
    kvKey,
    replyKey: (await newReplyKey()).publicKey,
    body: new TextEncoder().encode('{}'),
  })
  const opened = await new WorkerQuestionOpener().open(sealed.bytes, { device: desk, roster, kvKey })
  process.stdout.write(`opened ${opened.qHash === sealed.qHash}\n`)
}
