// The relay section's rows (bench/relay.ts): reported as information, never judged against a goal.
import type { Measurement } from './goals'
import { ms, x } from './report'
import type { LateDeskResult, RelayBenchOutcome } from './relay'

/** The relay rows, or one `n/a` row saying why nothing was measured (no nats-server). */
export function relayRows(outcome: RelayBenchOutcome): Measurement[] {
  if ('skipped' in outcome)
    return [{ metric: 'relay', measured: `n/a (${outcome.skipped.slice(0, 60)})`, status: 'n/a' }]
  const { natsRequest, askVisible, answerToAgent, sealMs, inbox } = outcome
  const floor = natsRequest.p50
  return [
    { metric: 'relay: bare NATS request p50 / p99', measured: `${ms(natsRequest.p50, 2)} / ${ms(natsRequest.p99, 2)}` },
    {
      metric: 'relay: remote ask → visible on a second desk p50 / p99',
      measured: `${ms(askVisible.p50)} / ${ms(askVisible.p99)}`,
    },
    {
      metric: 'relay: ask → visible p50 / bare request p50',
      measured: x(askVisible.p50 / floor),
      value: askVisible.p50 / floor,
    },
    {
      metric: 'relay: desk answer → agent’s answers p50 / p99',
      measured: `${ms(answerToAgent.p50)} / ${ms(answerToAgent.p99)}`,
    },
    {
      metric: 'relay: answer → agent p50 / bare request p50',
      measured: x(answerToAgent.p50 / floor),
      value: answerToAgent.p50 / floor,
    },
    ...Object.entries(outcome.steps).map(([step, p50]) => ({
      metric: `relay: step p50: ${step}`,
      measured: ms(p50, 2),
      value: p50,
    })),
    {
      metric: 'relay: sealing one question for 1 / 3 / 8 devices',
      measured: ['1', '3', '8'].map((n) => ms(sealMs[n] ?? Number.NaN, 2)).join(' / '),
    },
    ...lateDeskRows(inbox, 'this thread'),
    ...lateDeskRows(outcome.inboxWorker, 'worker thread'),
    {
      metric: `relay: the same measure, process idle as long (the machine's share)`,
      measured: ms(inbox.idleLoopBlockMs),
      value: inbox.idleLoopBlockMs,
    },
  ]
}

/** A late desk's rows: time to the first 50 and to all listed, and the longest event-loop block. */
function lateDeskRows(inbox: LateDeskResult, where: string): Measurement[] {
  return [
    {
      metric: `relay: late desk (${where}), ${inbox.asks} asks from ${inbox.agents} agents: first 50 listed`,
      measured: ms(inbox.firstFiftyMs, 0),
      value: inbox.firstFiftyMs,
    },
    {
      metric: `relay: late desk (${where}), ${inbox.asks} asks: all listed`,
      measured: ms(inbox.allMs, 0),
      value: inbox.allMs,
    },
    {
      metric: `relay: late desk (${where}), ${inbox.asks} asks: longest event-loop block`,
      measured: ms(inbox.longestLoopBlockMs),
      value: inbox.longestLoopBlockMs,
    },
  ]
}
