/**
 * mulberry32: a small, fast, seedable PRNG (32-bit state) giving floats in [0, 1). Every file
 * generator (tests, demo data, benchmarks) draws from it, so a seed gives the same bytes every time.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
