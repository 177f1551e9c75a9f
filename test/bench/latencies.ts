/** A side of a throughput case from the latencies of sequential operations (lookups, store). */
import type { Side } from './cases/types';

/**
 * Rate over the operations' own time (they ran one after another), median and p99 latency;
 * `found`: how many did what they should (the rest are errors).
 */
export function sideOfLatencies(latencies: number[], found = latencies.length): Side {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  const seconds = sorted.reduce((sum, ms) => sum + ms, 0) / 1000;
  return {
    requestsPerSecond: Math.round((sorted.length / seconds) * 10) / 10,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    requests: sorted.length,
    statusCodes: {},
    errors: sorted.length - found,
    valid: found === sorted.length,
  };
}
