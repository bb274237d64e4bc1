// The frames of the loopback fuzz test (fuzz.test.ts): arbitrary JSON values and strings, binary
// frames, prototype-pollution keys, deeply nested and huge values, and near-valid frames of every type.
import fc from 'fast-check'

/** One fuzz frame: text (sent as a text frame) or bytes (sent as a binary frame). */
export type FuzzFrame = { text: string } | { binary: Uint8Array }

const POLLUTION = [
  '{"type":"ask","id":"p1","__proto__":{"polluted":"yes"},"questions":[{"id":"q1","question":"x","__proto__":{"polluted":"yes"}}]}',
  '{"type":"hello","protocol":1,"client":{"name":"x","__proto__":{"polluted":"yes"}},"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"type":"answer","askId":"k","answers":[{"id":"q1","selected":[],"__proto__":{"polluted":"yes"}}]}',
  '{"__proto__":{"type":"ask"},"id":"p2"}',
  '{"type":"cancel","id":"__proto__"}',
  '{"type":"ask","id":"constructor","questions":[{"id":"__proto__","question":"toString","options":[{"label":"hasOwnProperty"}]}]}',
]

const nested = (depth: number, open: string, close: string): string => open.repeat(depth) + close.repeat(depth)

/** Deep and huge values, built once (each stays under the 1 MiB frame limit). */
const HEAVY = [
  nested(5_000, '[', ']'),
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  `{"type":"ask","id":"deep","questions":${nested(2_000, '[', ']')}}`,
  `{"type":"ask","id":"huge","questions":[{"id":"q1","question":"${'x'.repeat(900_000)}"}]}`,
  `{"type":"hello","protocol":1,"client":{"name":"${'n'.repeat(500_000)}"}}`,
  `{"type":"ask","id":"many","questions":[${Array.from({ length: 5_000 }, (_, i) => `{"id":"q${i}","question":"?"}`).join(',')}]}`,
  `{"type":"answer","askId":"k","answers":[${Array.from({ length: 20_000 }, () => '{"id":"q","selected":[]}').join(',')}]}`,
  `"${'\\u0000'.repeat(10_000)}"`,
  '1e999999',
  '-0',
]

const types = fc.constantFrom(
  'hello',
  'ask',
  'cancel',
  'answer',
  'dismiss',
  'history/get',
  'welcome',
  'error',
  '',
  'ASK',
  '__proto__',
)
const nearValid = fc.record(
  {
    type: types,
    id: fc.anything(),
    askId: fc.anything(),
    questions: fc.anything(),
    answers: fc.anything(),
    protocol: fc.anything(),
    client: fc.anything(),
    limit: fc.anything(),
    title: fc.anything(),
  },
  { requiredKeys: ['type'] },
)

/** The fuzz frame arbitrary (seeded by the caller). */
export const fuzzFrame: fc.Arbitrary<FuzzFrame> = fc.oneof(
  { weight: 3, arbitrary: fc.json().map((text) => ({ text })) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }).map((text) => ({ text })) },
  { weight: 3, arbitrary: nearValid.map((value) => ({ text: JSON.stringify(value) ?? 'null' })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((binary) => ({ binary })) },
  { weight: 1, arbitrary: fc.constantFrom(...POLLUTION).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.constantFrom(...HEAVY).map((text) => ({ text })) },
)
