// The push rows (issue 33, "Performance"): an ask's mini-notice sealed, signed, encrypted per RFC 8291
// and posted to the push service stand-in (web-push-testing, in a private network namespace), which
// decrypts it before it answers 201: "ask → push accepted and decrypted", p50 / p99. Then the phone's
// side in Node (the same code the service worker runs: open, verify the sender against the roster).
// Reported, never asserted. Without `ip netns` the section says why and measures nothing.
import { performance } from 'node:perf_hooks'
import { generateMemberIdentity, generateRootIdentity, loadMemberKeys, loadRootKeys, signRoster } from '../relay/crypto'
import { notifyDevices } from '../relay/push/notifier'
import { openNotice } from '../relay/push/notice'
import { generateVapidKeys } from '../relay/push/vapid'
import { pushServiceSkipReason, startPushService } from '../test/helpers/push-service'
import type { Measurement } from './goals'
import { ms } from './report'
import { summarize, type Summary } from './stats'

/** What the push section measured, or why it did not run. */
export type PushBenchOutcome =
  { skipped: string } | { askToDecrypted: Summary; openOnPhone: Summary; payloadBytes: number }

/** Runs `samples` pushes through the stand-in. */
export async function runPush(options: { samples: number }): Promise<PushBenchOutcome> {
  const skipped = pushServiceSkipReason()
  if (skipped) return { skipped }
  const service = await startPushService()
  try {
    const root = await loadRootKeys((await generateRootIdentity()).secret)
    const agent = await loadMemberKeys((await generateMemberIdentity('bench-agent', 'agent')).secret)
    const phone = await loadMemberKeys((await generateMemberIdentity('bench-phone', 'device')).secret)
    const { roster } = await signRoster(root, { version: 1, members: [agent.member, phone.member], now: Date.now() })
    const vapid = generateVapidKeys()
    const subscription = await service.subscribe(vapid.publicKey)
    const section = {
      v: 1 as const,
      vapid,
      subject: 'mailto:bench@example.org',
      subscriptions: [{ device: phone.member.id, subscription }],
    }
    const sends: number[] = []
    for (let i = 0; i < options.samples; i++) {
      const askId = `benchask${String(i).padStart(14, '0')}`
      const started = performance.now()
      const outcome = await notifyDevices(agent, roster, section, {
        askId,
        kvKey: `q.bench-agent.${askId}`,
        created: Date.now(),
        kind: 'ask',
        title: 'Deploy the nightly build to staging now?',
      })
      sends.push(performance.now() - started)
      if (outcome.results[0]?.result.status !== 'accepted') throw new Error('the stand-in did not accept a push')
    }
    const delivered = await service.messages(subscription.clientHash)
    const opens: number[] = []
    for (const text of delivered) {
      const started = performance.now()
      const opened = await openNotice(phone, roster, new TextEncoder().encode(text))
      opens.push(performance.now() - started)
      if (!opened.verified) throw new Error('a delivered notice did not verify')
    }
    return {
      askToDecrypted: summarize(sends),
      openOnPhone: summarize(opens),
      payloadBytes: new TextEncoder().encode(delivered[0] ?? '').byteLength,
    }
  } finally {
    await service.stop()
  }
}

/** The push rows, or one `n/a` row saying why nothing was measured. */
export function pushRows(outcome: PushBenchOutcome): Measurement[] {
  if ('skipped' in outcome)
    return [{ metric: 'push', measured: `n/a (${outcome.skipped.slice(0, 60)})`, status: 'n/a' }]
  return [
    {
      metric: 'push: ask notice → accepted and decrypted by the stand-in p50 / p99',
      measured: `${ms(outcome.askToDecrypted.p50)} / ${ms(outcome.askToDecrypted.p99)}`,
      value: outcome.askToDecrypted.p50,
    },
    {
      metric: 'push: the phone opens and verifies a notice (Node, the worker’s code) p50',
      measured: ms(outcome.openOnPhone.p50, 2),
      value: outcome.openOnPhone.p50,
    },
    { metric: 'push: notice payload before RFC 8291 (cap 3,993 B)', measured: `${outcome.payloadBytes} B` },
  ]
}
