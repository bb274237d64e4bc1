// What each section of the bench reports, as rows of the table before goals.ts judges them.
import type { BrowserResult, InboxResult } from './browser'
import type { ClaudeHooksResult } from './claude-hooks'
import type { CliResult } from './cli'
import { judge, type Measurement } from './goals'
import { classifyGrowth, type GrowthPoint } from './growth'
import type { MarkdownResult } from './markdown'
import { ms, us, x, type Row } from './report'
import type { RoundTripResult } from './roundtrip'
import type { RelayBenchOutcome } from './relay'
import { relayRows } from './relay-rows'
import { phoneFirstScreenRows, type PhoneFirstScreenOutcome } from './phone-first-screen'
import { pushRows, type PushBenchOutcome } from './push'
import type { ScaleResult } from './scale'
import type { StartupResult } from './startup'

/** A section's result, or why it could not run. */
export type Outcome<T> = T | { error: string }

/** Everything one run of the bench measured, by section (absent: the section was not asked for). */
export interface Results {
  roundtrip?: Outcome<RoundTripResult>
  scale?: Outcome<ScaleResult>
  scaleFloor?: Outcome<ScaleResult>
  browser?: Outcome<BrowserResult>
  cli?: Outcome<CliResult>
  startup?: Outcome<StartupResult>
  growth?: Outcome<GrowthPoint[]>
  markdown?: Outcome<MarkdownResult>
  claudeHooks?: Outcome<ClaudeHooksResult>
  relay?: Outcome<RelayBenchOutcome>
  push?: Outcome<PushBenchOutcome>
  phone?: Outcome<PhoneFirstScreenOutcome>
}

/** Whether a section failed. */
export const failed = (outcome: unknown): outcome is { error: string } =>
  typeof outcome === 'object' && outcome !== null && 'error' in outcome

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`
const unavailable = (metric: string, error: string): Measurement => ({
  metric,
  measured: `n/a (${error.slice(0, 60)})`,
  status: 'n/a',
})

function roundTrip(rt: RoundTripResult): Measurement[] {
  const cpu = rt.serverCpuPerAskUs
  const v1 = cpu.floorV1 === undefined ? '' : ` / ${us(cpu.floorV1)}`
  return [
    { metric: 'round trip p50: floor / ours', measured: `${us(rt.floor.p50)} / ${us(rt.core.p50)}` },
    { metric: 'round trip p50 ours/floor', measured: x(rt.ratioP50), value: rt.ratioP50 },
    { metric: 'round trip p99: floor / ours', measured: `${us(rt.floor.p99)} / ${us(rt.core.p99)}` },
    { metric: 'round trip p99 ours/floor', measured: x(rt.ratioP99), value: rt.ratioP99 },
    {
      metric: `server CPU per ask: floor${v1 ? ' / floor with v1 window replies' : ''} / ours`,
      measured: `${us(cpu.floor)}${v1} / ${us(cpu.core)}`,
    },
    { metric: 'server CPU per ask ours/floor', measured: x(cpu.core / cpu.floor), value: cpu.core / cpu.floor },
  ]
}

function scale(sc: ScaleResult, floor: Outcome<ScaleResult> | undefined): Measurement[] {
  const out: Measurement[] = [
    {
      metric: `asks settled/s (${sc.agents} agents × ${sc.asksPerAgent})`,
      measured: `${sc.settledPerSec}/s`,
      value: sc.settledPerSec,
    },
  ]
  const fl = floor && !failed(floor) ? floor : undefined
  if (fl) {
    out.push({ metric: 'asks settled/s, floor relay', measured: `${fl.settledPerSec}/s`, value: fl.settledPerSec })
    out.push({
      metric: 'asks settled/s ours/floor',
      measured: (sc.settledPerSec / fl.settledPerSec).toFixed(2),
      value: sc.settledPerSec / fl.settledPerSec,
    })
    out.push({
      metric: 'server CPU per settled ask: floor / ours',
      measured: `${us(fl.settleCpuPerAskUs)} / ${us(sc.settleCpuPerAskUs)}`,
    })
  }
  // In the goal's unit (KB): --runs judges the median of `value` against it.
  out.push({
    metric: 'core RSS per pending ask',
    measured: kb(sc.perPendingBytes.rss),
    value: sc.perPendingBytes.rss / 1024,
  })
  out.push({ metric: 'core heap per pending ask', measured: kb(sc.perPendingBytes.heapUsed) })
  out.push({
    metric: 'core RSS per agent connection',
    measured: kb(sc.perConnectionBytes.rss),
    value: sc.perConnectionBytes.rss,
  })
  if (fl) {
    out.push({
      metric: 'floor relay RSS per agent connection',
      measured: kb(fl.perConnectionBytes.rss),
      value: fl.perConnectionBytes.rss,
    })
    const mem = sc.perConnectionBytes.rss / fl.perConnectionBytes.rss
    out.push({ metric: 'core RSS per agent connection ours/floor', measured: x(mem), value: mem })
  }
  const total = sc.agents * sc.asksPerAgent
  const wrong = sc.crossed + sc.lost + sc.duplicates + (total - sc.pendingReached)
  out.push({ metric: `crossed / lost (of ${total})`, measured: `${sc.crossed} / ${sc.lost}`, value: wrong })
  return out
}

function inbox(ib: InboxResult): Measurement[] {
  const out: Measurement[] = []
  const first = ib.snapshotToFirstScreenMs
  out.push({
    metric: `${ib.asks}-ask inbox: snapshot → first screen`,
    measured: ms(first.p50),
    value: first.n > 0 ? first.p50 : Number.NaN,
  })
  if (ib.snapshot)
    out.push({
      metric: `${ib.asks}-ask inbox: snapshot bytes / frames`,
      measured: `${kb(ib.snapshot.bytes)} / ${ib.snapshot.frames}`,
      value: ib.snapshot.frames,
    })
  if (ib.snapshotToAllAsksMs && ib.snapshotToAllAsksMs.n > 0)
    out.push({
      metric: `${ib.asks}-ask inbox: snapshot → every ask in`,
      measured: ms(ib.snapshotToAllAsksMs.p50),
      value: ib.snapshotToAllAsksMs.p50,
    })
  if (ib.longestTaskMs && ib.longestTaskMs.n > 0)
    out.push({
      metric: `${ib.asks}-ask inbox: longest task until then`,
      measured: ms(ib.longestTaskMs.p50),
      value: ib.longestTaskMs.p50,
    })
  if (ib.jsHeapBytes !== undefined)
    out.push({
      metric: `${ib.asks}-ask inbox: page JS heap`,
      measured: `${(ib.jsHeapBytes / 2 ** 20).toFixed(1)} MiB`,
      value: ib.jsHeapBytes,
    })
  const nav = ib.nextAskMs
  if (nav && nav.n > 0) {
    out.push({ metric: `${ib.asks}-ask inbox: next ask p50`, measured: ms(nav.p50), value: nav.p50 })
    out.push({ metric: `${ib.asks}-ask inbox: next ask p95`, measured: ms(nav.p95), value: nav.p95 })
  }
  const md = ib.nextAskMarkdownMs
  if (md && md.n > 0)
    out.push({
      metric: `${ib.asks}-ask inbox: next ask p50, 4 KB Markdown detail`,
      measured: ms(md.p50),
      value: md.p50,
    })
  return out
}

function browser(br: BrowserResult): Measurement[] {
  const v = br.visible
  const out: Measurement[] = [
    {
      metric: `ask → visible p50 (${v.samples} asks)`,
      measured: ms(v.dom.p50),
      value: v.samples > 0 ? v.dom.p50 : Number.NaN,
    },
    { metric: 'ask → visible p95', measured: ms(v.dom.p95) },
    ...br.inboxes.flatMap(inbox),
  ]
  const growth = (label: string, value: (ib: InboxResult) => number | undefined): void => {
    const points = br.inboxes
      .map((ib) => ({ size: ib.asks, value: value(ib) ?? Number.NaN }))
      .filter((p) => Number.isFinite(p.value))
    const shape = classifyGrowth(points)
    const [a, b] = points.slice(-2)
    if (shape && a && b) out.push({ metric: `growth ${a.size}→${b.size}: ${label}`, measured: shape })
  }
  growth('first screen', (ib) => (ib.snapshotToFirstScreenMs.n > 0 ? ib.snapshotToFirstScreenMs.p50 : undefined))
  growth('next ask p50', (ib) => (ib.nextAskMs && ib.nextAskMs.n > 0 ? ib.nextAskMs.p50 : undefined))
  growth('next ask p95', (ib) => (ib.nextAskMs && ib.nextAskMs.n > 0 ? ib.nextAskMs.p95 : undefined))
  growth('page JS heap', (ib) => ib.jsHeapBytes)
  const small = br.inboxes.find((ib) => ib.asks === 1000)
  const large = br.inboxes.find((ib) => ib.asks === 10000)
  if (small && large && small.snapshotToFirstScreenMs.n > 0 && large.snapshotToFirstScreenMs.n > 0) {
    const ratio = large.snapshotToFirstScreenMs.p50 / small.snapshotToFirstScreenMs.p50
    out.push({ metric: 'inbox first screen 10000/1000', measured: ratio.toFixed(2), value: ratio })
  }
  return out
}

function cli(cl: CliResult): Measurement[] {
  return [
    {
      metric: `node -e 0 / ask-user --version (median of ${cl.runs})`,
      measured: `${ms(cl.nodeE0.p50)} / ${ms(cl.version.p50)}`,
    },
    {
      metric: 'ask-user ask / node -e 0',
      measured: x(cl.ratio),
      value: cl.failures.length === 0 ? cl.ratio : Number.NaN,
    },
  ]
}

function startup(st: StartupResult): Measurement[] {
  const out: Measurement[] = [
    { metric: 'ask-user mcp / node -e 0', measured: `${x(st.ratios.mcp)} (${ms(st.mcp.p50)})`, value: st.ratios.mcp },
  ]
  if (st.mcpPackaged && st.ratios.mcpPackaged !== undefined) {
    out.push({
      metric: 'ask-user mcp, packaged launcher / node -e 0',
      measured: `${x(st.ratios.mcpPackaged)} (${ms(st.mcpPackaged.p50)})`,
      value: st.ratios.mcpPackaged,
    })
  }
  out.push({
    metric: 'ask-user hook (no companion) / node -e 0',
    measured: `${x(st.ratios.hookNoCompanion)} (${ms(st.hookNoCompanion.p50)})`,
    value: st.ratios.hookNoCompanion,
  })
  out.push({
    metric: 'ask-user hook (answered) / node -e 0',
    measured: `${x(st.ratios.hookAnswered)} (${ms(st.hookAnswered.p50)})`,
    value: st.ratios.hookAnswered,
  })
  out.push({ metric: 'start-up failures', measured: st.failures[0]?.slice(0, 80) ?? 'none', value: st.failures.length })
  return out
}

function growth(gr: GrowthPoint[]): Measurement[] {
  const out = gr.flatMap((g): Measurement[] => [
    {
      metric: `${g.asks}-ask inbox: core RSS / heap per pending ask`,
      measured: `${kb(g.rssPerPendingBytes)} / ${kb(g.heapPerPendingBytes)}`,
      value: g.rssPerPendingBytes,
    },
    {
      metric: `${g.asks}-ask inbox: snapshot bytes (asks in it)`,
      measured: `${kb(g.snapshot.bytes)} (${g.snapshot.asks})`,
      value: g.snapshot.bytes,
    },
    {
      metric: `${g.asks}-ask inbox: frames / bytes to the whole inbox`,
      measured: `${g.frames} / ${kb(g.bytes)}`,
      value: g.frames,
    },
    { metric: `${g.asks}-ask inbox: largest frame`, measured: kb(g.largestFrameBytes), value: g.largestFrameBytes },
  ])
  const grows = (label: string, value: (g: GrowthPoint) => number): void => {
    const shape = classifyGrowth(gr.map((g) => ({ size: g.asks, value: value(g) })))
    if (shape)
      out.push({ metric: `growth ${gr[gr.length - 2]?.asks}→${gr[gr.length - 1]?.asks}: ${label}`, measured: shape })
  }
  grows('core RSS per pending ask', (g) => g.rssPerPendingBytes)
  grows('snapshot bytes', (g) => g.snapshot.bytes)
  grows('largest frame', (g) => g.largestFrameBytes)
  return out
}

function markdown(mk: MarkdownResult): Measurement[] {
  // Per shape and mode: the ratio, both medians, the growth of each from a quarter of the size
  // (ours/markdown-it's), and what ours made of the text.
  const shape = (quarterMs: number, fullMs: number, chars: number): string =>
    classifyGrowth([
      { size: chars / 4, value: quarterMs },
      { size: chars, value: fullMs },
    ]) ?? 'n/a'
  return mk.shapes.map((s) => ({
    metric: `Markdown ${s.mode}, ${s.shape}: ours/markdown-it`,
    measured: `${x(s.ratio)} (${ms(s.oursMs)} / ${ms(s.markdownItMs)}; ${shape(s.oursQuarterMs, s.oursMs, s.chars)}/${shape(s.markdownItQuarterMs, s.markdownItMs, s.chars)}; ${s.outcome})`,
    value: s.ratio,
  }))
}

function claudeHooks(ch: ClaudeHooksResult): Measurement[] {
  const { floor, mcpTool, command } = ch.withCompanion
  const lone = ch.withoutCompanion
  return [
    {
      metric: `Claude Code ${ch.version}, ${ch.calls} Bash calls: per call, floor / mcp_tool / command hook`,
      measured: `${ms(floor)} / ${ms(mcpTool)} / ${ms(command)}`,
    },
    {
      metric: 'Claude Code hook per call: mcp_tool / command',
      measured: x(mcpTool / command),
      value: mcpTool / command,
    },
    {
      metric: 'hook per event, no companion: hook tool / ask-user hook',
      measured: `${ms(lone.mcpTool)} / ${ms(lone.command)}`,
      value: lone.mcpTool / lone.command,
    },
  ]
}

/** A section's rows: what it measured, or one `n/a` row saying why it could not. */
function sectionRows<T>(
  outcome: Outcome<T> | undefined,
  name: string,
  rows: (result: T) => Measurement[],
): Measurement[] {
  if (outcome === undefined) return []
  return failed(outcome) ? [unavailable(name, outcome.error)] : rows(outcome)
}

/** The table of one run: every section's measurements, judged against goals.ts. */
export function tableOf(results: Results): Row[] {
  return [
    ...sectionRows(results.roundtrip, 'round trip', roundTrip),
    ...sectionRows(results.scale, 'scale', (sc) => scale(sc, results.scaleFloor)),
    ...sectionRows(results.browser, 'the person’s side (Chromium)', browser),
    ...sectionRows(results.cli, 'ask-user ask / node -e 0', cli),
    ...sectionRows(results.startup, 'ask-user mcp / hook start-up', startup),
    ...sectionRows(results.growth, 'cost growth (core)', growth),
    ...sectionRows(results.markdown, 'Markdown hostile shapes ours/markdown-it', markdown),
    ...sectionRows(results.claudeHooks, 'Claude Code hooks per tool call', claudeHooks),
    ...sectionRows(results.relay, 'relay', relayRows),
    ...sectionRows(results.push, 'push', pushRows),
    ...sectionRows(results.phone, 'phone first screen', phoneFirstScreenRows),
  ].map(judge)
}
