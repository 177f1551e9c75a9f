/** One autocannon load of a bench target: the side's rate, latency percentiles and answers. */
import autocannon from 'autocannon';
import type { BenchTarget, Side } from './cases/types';

/** BENCH_CONNECTIONS: the connections autocannon holds open (no pipelining). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);

export async function load(base: string, target: BenchTarget, seconds: number): Promise<Side> {
  const result = await autocannon({
    url: `${base}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    ...(target.setupRequest ? { requests: [{ setupRequest: target.setupRequest }] } : {}),
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  const unexpected = Object.keys(statusCodes).filter((code) => Number(code) !== target.expectStatus);
  return {
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    sent: (result.requests as { sent?: number }).sent,
    statusCodes,
    errors: result.errors,
    valid: unexpected.length === 0 && result.errors === 0 && result.requests.total > 0,
  };
}
