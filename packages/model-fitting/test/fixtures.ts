/** Seeded data for the fitting tests: the same numbers every run. */
export function seeded(seed: number): { uniform: () => number; normal: () => number } {
  let state = seed >>> 0 || 1;
  const uniform = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  // Box-Muller.
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}
