// Stand-in used by vite.bench.config.mts only while core/index.ts does not exist yet,
// so the floor half of the bench can be built and run on its own.
export function startCompanion(_options: unknown): never {
  throw new Error('core/index.ts does not exist yet in this checkout')
}
