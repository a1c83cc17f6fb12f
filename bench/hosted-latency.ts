/**
 * The hosted API's latency as published (issue 26): a page read about 600 ms on average and 1.1 s at p95.
 * Each answer's added latency is drawn from a log-normal with that mean and p95 (latency has a long right tail,
 * never below zero), from a seeded generator: two runs draw the same latencies in the same order, so their
 * figures compare.
 */
export const HOSTED_MEAN_MS = 600;
export const HOSTED_P95_MS = 1100;
/** The standard normal's 95th percentile. */
const Z95 = 1.6448536;

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Latencies in ms with the given mean and p95. For a log-normal, mean = e^(μ+σ²/2) and p95 = e^(μ+zσ), so
 * σ solves σ²/2 − zσ + ln(p95/mean) = 0 (the smaller root) and μ = ln(mean) − σ²/2.
 */
export function logNormalLatency(seed: number, meanMs = HOSTED_MEAN_MS, p95Ms = HOSTED_P95_MS): () => number {
  const sigma = Z95 - Math.sqrt(Z95 * Z95 - 2 * Math.log(p95Ms / meanMs));
  const mu = Math.log(meanMs) - (sigma * sigma) / 2;
  const random = seededRandom(seed);
  return () => {
    // Box–Muller; 1 − u keeps the logarithm's argument above 0.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.exp(mu + sigma * normal);
  };
}
